import { Drawer, Modal } from "@mantine/core";
import { createContext, useCallback, useContext, useEffect, useState } from "react";
import type { DialogProps } from "./Dialog.tsx";
import { useTranslation } from "./i18n.ts";

/**
 * How a dialog opened from inside another one (a hint's confirmation in a challenge's dialog) tells
 * the outer one that it is open: each Mantine Modal closes on Escape from a listener on the window,
 * so without this one press would close both.
 */
const NestedDialogs = createContext<((change: 1 | -1) => void) | null>(null);

/**
 * The app's dialog (loaded by Dialog.tsx): Mantine's Modal (its focus trap, focus return, scroll lock, portal and
 * overlay), or its Drawer for `position="right"`, with a header that names the dialog and a named
 * close button. The content mounts only while open (and through the closing transition), so forms
 * inside start afresh on each opening. Dialogs nest as plain stacked modals: a newer one draws
 * above an older one (later in the page), and Escape closes the innermost only.
 */
export function ModalDialog({ opened, onClose, title, children, centered = false, size = "md", position = "center", withCloseButton = true, closeLabel, padding, bodyClassName }: DialogProps) {
  const { t } = useTranslation();
  // Mantine's Modal notes the element to give focus back to when `opened` turns true, not when it
  // mounts open, as it does when this module arrives after the click that opened it: it mounts
  // closed and opens on the next render.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const [nestedOpen, setNestedOpen] = useState(0);
  const onNestedChange = useCallback((change: 1 | -1) => setNestedOpen((n) => n + change), []);
  const tellOuter = useContext(NestedDialogs);
  const shown = opened && mounted;
  useEffect(() => {
    if (!shown || !tellOuter) return;
    tellOuter(1);
    return () => tellOuter(-1);
  }, [shown, tellOuter]);

  // The overlay dims the whole page, not only the window: a phone's page runs on under its fixed
  // overlay (the footer below the fold, a full-page capture), so it is as tall as the page.
  const [pageHeight, setPageHeight] = useState(0);
  useEffect(() => {
    if (shown) setPageHeight(document.documentElement.scrollHeight);
  }, [shown]);

  const Parts = position === "right" ? Drawer : Modal;
  const hasHeader = title !== undefined || withCloseButton;
  const content = (
    <>
      <Parts.Overlay style={{ bottom: "auto", height: `max(100%, ${pageHeight}px)` }} data-testid="dialog-overlay" />
      <Parts.Content>
        {hasHeader && (
          // A plain row: Mantine's <header> would be read as a second banner landmark beside the app's.
          <Parts.Header component="div">
            {title !== undefined && (
              <Parts.Title fz={position === "right" ? "h4" : undefined} fw={position === "right" ? 700 : undefined}>
                {title}
              </Parts.Title>
            )}
            {withCloseButton && <Parts.CloseButton aria-label={closeLabel ?? t("generic.close")} />}
          </Parts.Header>
        )}
        <Parts.Body className={bodyClassName}>
          <NestedDialogs value={onNestedChange}>{children}</NestedDialogs>
        </Parts.Body>
      </Parts.Content>
    </>
  );
  const common = { opened: shown, onClose, size, padding, closeOnEscape: nestedOpen === 0 };
  return position === "right" ? (
    <Drawer.Root {...common} position="right">
      {content}
    </Drawer.Root>
  ) : (
    <Modal.Root {...common} centered={centered}>
      {content}
    </Modal.Root>
  );
}
