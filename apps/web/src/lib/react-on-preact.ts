// What the build gives modules that import "react": Preact's React layer (a tenth of react-dom's
// size), and the one React 19 component it lacks, Activity, which Mantine draws around content it
// keeps mounted while hidden (a collapsed Collapse, a kept tab panel).
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
