// What the build gives modules that import "react": Preact's React layer (a tenth of react-dom's
// size), and the one React 19 component it lacks, Activity, which Mantine draws around content it
// keeps mounted while hidden (a collapsed Collapse, a kept tab panel).
import { options } from "preact";
import { createElement, type ReactNode } from "preact/compat";

// Preact's typings declare the module with `export =`; the build re-exports its named exports all the same.
// @ts-expect-error TS2498
export * from "preact/compat";
export { default } from "preact/compat";

/**
 * React's Activity, in the one way Mantine uses it: the children stay mounted (their state kept)
 * and are hidden while the mode is "hidden". One wrapper in both modes, so switching keeps them.
 */
export function Activity({ mode = "visible", children }: { mode?: "visible" | "hidden"; children?: ReactNode }) {
  return createElement("div", { style: { display: mode === "hidden" ? "none" : "contents" } }, children);
}

// React focuses an element drawn with autoFocus when it is inserted; Preact only sets the
// attribute, which browsers honour at page load alone. A ref on such elements focuses each one
// once, when it first enters the page (a sign-in form's username, a dialog's first field).
const autoFocused = new WeakSet<HTMLElement>();
type Ref = ((el: HTMLElement | null) => void | (() => void)) | { current: HTMLElement | null } | null | undefined;
const previousVnodeHook = options.vnode;
options.vnode = (vnode) => {
  const props = vnode.props as { autoFocus?: boolean; ref?: Ref } | null;
  if (typeof vnode.type === "string" && props?.autoFocus) {
    const original = (vnode as { ref?: Ref }).ref;
    (vnode as { ref?: Ref }).ref = (el: HTMLElement | null) => {
      if (el && !autoFocused.has(el)) {
        autoFocused.add(el);
        el.focus();
      }
      // The original ref's cleanup (a React 19 ref may return one) is handed back to Preact.
      if (typeof original === "function") return original(el);
      if (original) original.current = el;
    };
  }
  previousVnodeHook?.(vnode);
};
