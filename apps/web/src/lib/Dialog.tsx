import { CloseButton, MantineThemeProvider } from "@mantine/core";
import {
  type ComponentPropsWithoutRef,
  createContext,
  type PointerEvent,
  type ReactNode,
  type MouseEvent,
  useCallback,
  useContext,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { DialogStack, TOASTS_REGION_ID } from "./dialog-stack.ts";
import { useTranslation } from "./i18n.ts";
import "./dialog.css";

export interface DialogProps {
  opened: boolean;
  /** Escape, a click on the backdrop and the close button ask for this; the caller closes. */
  onClose(): void;
  /** The heading (an h2) that names the dialog. Without it, put a DialogTitle in the content. */
  title?: ReactNode;
  children?: ReactNode;
  /** Vertically centred rather than near the top. */
  centered?: boolean;
  /** The width, as Mantine's Modal sizes it; on a phone the screen's width less a margin. */
  size?: "xs" | "sm" | "md" | "lg" | "xl";
  /** "right": a panel the screen's height along the right edge (a drawer). */
  position?: "center" | "right";
  withCloseButton?: boolean;
  /** The close button's name; "Close" unless said otherwise. */
  closeLabel?: string;
  /** The space around the content, one of Mantine's spacing steps (md unless said otherwise). */
  padding?: "xs" | "sm" | "md" | "lg" | "xl";
  bodyClassName?: string;
}

interface TitleSlot {
  id: string;
  /** A DialogTitle announces itself, so the dialog is labelled by it; returns the undo. */
  register(): () => void;
}

const TitleContext = createContext<TitleSlot | null>(null);

/** The dialogs open now; the toasts' region moves into the newest (see DialogStack). */
const openDialogs = new DialogStack<HTMLElement>();

let dialogCount = 0;

/** Elements that take focus on open, in the order the call sites mark them. */
const AUTOFOCUS = "[data-autofocus], [autofocus]";

/**
 * A modal dialog on the native <dialog> element (showModal): the browser makes the rest of the page
 * inert (Tab stays out of it) and draws the dialog above everything, so Mantine's Modal (focus trap, scroll
 * lock, portal and overlay: about 11 KB gzip) stays out of every page's first load. The content
 * mounts only while `opened`, so forms inside start afresh on each opening.
 */
export function Dialog(props: DialogProps) {
  if (!props.opened) return null;
  // In <body> like Mantine's, so no form, click handler or inherited style of the call site reaches it.
  return createPortal(<OpenDialog {...props} />, document.body);
}

function OpenDialog({ onClose, title, children, centered = false, size = "md", position = "center", withCloseButton = true, closeLabel, padding, bodyClassName }: DialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();
  const [ownTitles, setOwnTitles] = useState(0);
  const register = useCallback(() => {
    setOwnTitles((n) => n + 1);
    return () => setOwnTitles((n) => n - 1);
  }, []);
  const titleSlot = useMemo(() => ({ id: titleId, register }), [titleId, register]);
  // Mantine's dropdowns and tooltips portal to <body>, which is inert under a modal dialog: inside
  // this one they portal into a layer of the dialog instead (found by id when they mount).
  const [layerId] = useState(() => `fs-dialog-layer-${++dialogCount}`);
  const portalTheme = useMemo(() => ({ components: { Portal: { defaultProps: { target: `#${layerId}` } } } }), [layerId]);
  // A press that starts in the content and ends on the backdrop (selecting text) is not a click on it.
  const pressedBackdrop = useRef(false);

  useLayoutEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const toasts = document.getElementById(TOASTS_REGION_ID);
    const slot = dialog.querySelector<HTMLElement>(".fs-dialog-toasts");

    // Escape in an open Mantine dropdown (a Select) closes the dropdown only, as in Mantine's Modal.
    // Noted before Mantine's own handler runs: the dropdown is closed by the time `cancel` fires.
    let escapeInDropdown = false;
    const onKeyDown = (event: KeyboardEvent) => {
      escapeInDropdown = event.key === "Escape" && event.target instanceof Element && event.target.getAttribute("data-mantine-stop-propagation") === "true";
    };
    const onCancel = (event: Event) => {
      // React owns the open state: Escape asks the caller, who unmounts the dialog.
      event.preventDefault();
      if (!escapeInDropdown) onCloseRef.current();
      escapeInDropdown = false;
    };
    // The browser may close the dialog itself (a second Escape the page did not let through).
    const onNativeClose = () => onCloseRef.current();
    dialog.addEventListener("keydown", onKeyDown, true);
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onNativeClose);
    dialog.showModal();
    const focusMarked = () => {
      const marked = dialog.querySelector<HTMLElement>(AUTOFOCUS);
      marked?.focus();
      return marked !== null;
    };
    let lateContent: MutationObserver | null = null;
    if (!focusMarked()) {
      // Content that arrives after opening (a form loaded on demand) still gets its marked field
      // focused, unless the visitor has moved focus meanwhile.
      const chosen = document.activeElement;
      lateContent = new MutationObserver(() => {
        if (document.activeElement !== chosen || focusMarked()) lateContent?.disconnect();
      });
      lateContent.observe(dialog, { childList: true, subtree: true });
    }
    if (openDialogs.push(dialog)) lockScroll();
    if (toasts && slot) slot.append(toasts);

    return () => {
      lateContent?.disconnect();
      dialog.removeEventListener("keydown", onKeyDown, true);
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onNativeClose);
      if (openDialogs.remove(dialog)) unlockScroll();
      const below = openDialogs.top?.querySelector(".fs-dialog-toasts");
      if (toasts) (below ?? document.body).append(toasts);
      // Closed before it leaves the page, so the page is no longer inert and can take focus back.
      if (dialog.open) dialog.close();
      // The browser returns focus only on close() and only in some engines: done here for all.
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  const onPointerDown = (event: PointerEvent<HTMLDialogElement>) => {
    pressedBackdrop.current = event.target === event.currentTarget;
  };
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    // The dialog element is the backdrop around the panel: a click on it (not in the panel) closes.
    if (pressedBackdrop.current && event.target === event.currentTarget) onCloseRef.current();
    pressedBackdrop.current = false;
  };

  const labelled = title !== undefined || ownTitles > 0;
  const hasHeader = title !== undefined || withCloseButton;
  return (
    <dialog
      ref={ref}
      className="fs-dialog"
      data-position={position}
      data-centered={centered || undefined}
      aria-labelledby={labelled ? titleId : undefined}
      onPointerDown={onPointerDown}
      onClick={onClick}
      style={{ "--dialog-size": `var(--dialog-size-${size})`, ...(padding && { "--dialog-padding": `var(--mantine-spacing-${padding})` }) } as React.CSSProperties}
    >
      <div className="fs-dialog-panel">
        {hasHeader && (
          <div className="fs-dialog-header">
            {title !== undefined && (
              <h2 id={titleId} className="fs-dialog-title">
                {title}
              </h2>
            )}
            {withCloseButton && <CloseButton className="fs-dialog-close" aria-label={closeLabel ?? t("generic.close")} onClick={() => onCloseRef.current()} />}
          </div>
        )}
        <div className={bodyClassName ? `fs-dialog-body ${bodyClassName}` : "fs-dialog-body"}>
          <TitleContext value={titleSlot}>
            <MantineThemeProvider theme={portalTheme}>{children}</MantineThemeProvider>
          </TitleContext>
        </div>
      </div>
      <div id={layerId} className="fs-dialog-layer" />
      <div className="fs-dialog-toasts" />
    </dialog>
  );
}

/**
 * A heading anywhere in a dialog's content that names the dialog (for a dialog without `title`),
 * unstyled but for its margin.
 */
export function DialogTitle(props: ComponentPropsWithoutRef<"h2">) {
  const slot = useContext(TitleContext);
  useLayoutEffect(() => slot?.register(), [slot]);
  return <h2 {...props} id={slot?.id} className={props.className ? `fs-dialog-own-title ${props.className}` : "fs-dialog-own-title"} />;
}

let lockedStyle: { overflow: string; scrollbarGutter: string } | null = null;

/** No page scroll behind a dialog; the scroll bar's room is kept, so nothing shifts sideways. */
function lockScroll() {
  const root = document.documentElement;
  const hadScrollBar = window.innerWidth > root.clientWidth;
  lockedStyle = { overflow: root.style.overflow, scrollbarGutter: root.style.scrollbarGutter };
  root.style.overflow = "hidden";
  if (hadScrollBar) root.style.scrollbarGutter = "stable";
}

function unlockScroll() {
  if (!lockedStyle) return;
  const root = document.documentElement;
  root.style.overflow = lockedStyle.overflow;
  root.style.scrollbarGutter = lockedStyle.scrollbarGutter;
  lockedStyle = null;
}
