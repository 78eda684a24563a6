import { cloneElement, type ReactElement, type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { shiftInto } from "./keep-inside.ts";
import "./tip.css";

/**
 * A short label for a control, shown above it while the pointer rests on it or keyboard focus is on
 * it, and dismissed with Escape. The trigger is described by the label (aria-describedby), so a
 * screen reader hears it too. Positioned with CSS alone, without a positioning library: it sits
 * centred above the trigger and is only nudged sideways to stay inside the window.
 */
export function Tip({ label, children }: { label: ReactNode; children: ReactElement<{ "aria-describedby"?: string }> }) {
  const id = useId();
  // Hover and focus are tracked apart: a control that loses focus under the pointer (it is
  // disabled while its action runs) keeps its label, and the other way round.
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const open = hovered || focused;
  const labelRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (!open) return;
    // Escape hides the label wherever focus is, without moving it (WCAG 1.4.13, dismissible).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setHovered(false);
      setFocused(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  useLayoutEffect(() => {
    const element = labelRef.current;
    if (!open || !element) return;
    // Measured centred, then moved as far as needed to keep it on screen (a phone's narrow window).
    element.style.setProperty("--tip-shift", "0px");
    const rect = element.getBoundingClientRect();
    const shift = shiftInto(rect.left, rect.right, 0, document.documentElement.clientWidth);
    element.style.setProperty("--tip-shift", `${shift}px`);
  }, [open]);

  const describedBy = [children.props["aria-describedby"], id].filter(Boolean).join(" ");
  return (
    <span
      className="fs-tip"
      // Mouse only: a tap on a touch screen presses the control rather than leaving a label behind.
      onPointerEnter={(e) => e.pointerType === "mouse" && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      // Keyboard focus only: a click also focuses the control, and its label would then linger.
      onFocus={(e) => focusVisible(e.target) && setFocused(true)}
      onBlur={() => setFocused(false)}
    >
      {cloneElement(children, { "aria-describedby": describedBy })}
      <span ref={labelRef} id={id} role="tooltip" className="fs-tip-label" hidden={!open}>
        {label}
      </span>
    </span>
  );
}

function focusVisible(element: Element): boolean {
  try {
    return element.matches(":focus-visible");
  } catch {
    // A browser without :focus-visible: any focus shows the label.
    return true;
  }
}
