import { ModalBaseTitle, type ModalBaseTitleProps } from "@mantine/core";

/**
 * A heading anywhere in a dialog's content that names the dialog (for a dialog without `title`):
 * Mantine's own title, so the dialog's aria-labelledby points at it. A module apart from the
 * dialog itself, so content drawn both in and out of a dialog does not bring the dialog's loader.
 */
export function DialogTitle(props: ModalBaseTitleProps) {
  return <ModalBaseTitle {...props} />;
}
