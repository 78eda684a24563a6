/** The id of the toasts' region (main.tsx makes it), which moves into the newest open dialog. */
export const TOASTS_REGION_ID = "toasts";

/**
 * The open dialogs, oldest first. A modal dialog makes everything outside it inert, toasts
 * included, so the toasts live in the newest one; the page scrolls again once none is open.
 * Dialogs may close in any order (a parent's dialog unmounts with a nested one still open).
 */
export class DialogStack<T> {
  #open: T[] = [];

  /** Adds a dialog on top; true when it is the only one (the page's scroll is to be locked). */
  push(dialog: T): boolean {
    this.#open.push(dialog);
    return this.#open.length === 1;
  }

  /** Removes a dialog wherever it is; true when none is left open (the page may scroll again). */
  remove(dialog: T): boolean {
    this.#open = this.#open.filter((d) => d !== dialog);
    return this.#open.length === 0;
  }

  /** The newest open dialog, or null when none is open. */
  get top(): T | null {
    return this.#open.at(-1) ?? null;
  }
}
