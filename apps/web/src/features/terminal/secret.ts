import { useEffect, useRef } from "react";

/** The hidden key sequence that opens the terminal: ↑ ↑ ↓ ↓ ← → ← → b a. */
export const SECRET = ["ArrowUp", "ArrowUp", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight", "b", "a"];

function typingInField(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName));
}

/**
 * Calls `onSecret` each time the secret sequence is typed outside a field. Kept apart from the
 * terminal, which loads the first time the sequence is typed: every page listens, none loads it.
 */
export function useSecretSequence(onSecret: () => void): void {
  const progress = useRef(0);
  const callback = useRef(onSecret);
  callback.current = onSecret;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typingInField(event.target)) return;
      const expected = SECRET[progress.current];
      progress.current = event.key === expected ? progress.current + 1 : event.key === SECRET[0] ? 1 : 0;
      if (progress.current === SECRET.length) {
        progress.current = 0;
        callback.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
