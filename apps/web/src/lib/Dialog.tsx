import type { ReactNode } from "react";
import { deferred } from "./deferred.tsx";

export interface DialogProps {
  opened: boolean;
  /** Escape, a click on the overlay and the close button ask for this; the caller closes. */
  onClose(): void;
  /** The heading (an h2) that names the dialog. Without it, put a DialogTitle (DialogTitle.tsx) in the content. */
  title?: ReactNode;
  children?: ReactNode;
  /** Vertically centred rather than near the top. */
  centered?: boolean;
  /** The width, one of Mantine's Modal (or Drawer) sizes. */
  size?: "xs" | "sm" | "md" | "lg" | "xl";
  /** "right": Mantine's Drawer along the right edge, the screen's height. */
  position?: "center" | "right";
  withCloseButton?: boolean;
  /** The close button's name; "Close" unless said otherwise. */
  closeLabel?: string;
  /** The space around the content, one of Mantine's spacing steps (md unless said otherwise). */
  padding?: "xs" | "sm" | "md" | "lg" | "xl";
  bodyClassName?: string;
}

/**
 * The app's dialog, Mantine's Modal or Drawer (ModalDialog.tsx). With its focus trap, scroll lock
 * and scroll area (which brings the floating-position library) that is about 30 KB of JavaScript
 * (gzip), which no page needs to draw itself: it loads once a page that has a dialog is drawn,
 * before anyone can open one, rather than in the page's first load.
 */
export const Dialog = deferred("lib/ModalDialog", () => import("./ModalDialog.tsx").then((m) => m.ModalDialog), null);
