/** Fields whose typed text is given back after hydration (not checkboxes, radios, files or buttons). */
const TEXT_TYPES = new Set(["text", "search", "email", "password", "url", "tel", "number"]);
/** How long after the page's first commit a field is waited for to hydrate. */
const WAIT_MS = 15_000;

type Field = HTMLInputElement | HTMLTextAreaElement;

function isTextField(target: EventTarget | null): target is Field {
  return (target instanceof HTMLInputElement && TEXT_TYPES.has(target.type)) || target instanceof HTMLTextAreaElement;
}

/** Whether React has taken the field over (it marks the elements it hydrated). */
function isHydrated(field: Field): boolean {
  return Object.keys(field).some((key) => key.startsWith("__reactFiber$"));
}

/**
 * What a reader types into a page the server drew before React has hydrated the field (a flag
 * pasted, a username typed on a slow phone) is in the field but not in React's state, and
 * hydration would empty it. Noted from the start (what was typed before this script ran, too); once
 * the page has committed (the returned function), each noted field is given its text back as an
 * input event, which the page's own handlers take as if it were typed then, as soon as React has
 * hydrated it: parts of a page inside a suspense boundary hydrate after the page's first commit.
 */
export function keepEarlyInput(): () => void {
  const typed = new Map<Field, string>();
  // Typed before this script ran: the field no longer holds what the server wrote in it.
  for (const field of document.querySelectorAll("input, textarea")) {
    if (isTextField(field) && field.value !== field.defaultValue) typed.set(field, field.value);
  }
  const note = (event: Event) => {
    if (isTextField(event.target) && !isHydrated(event.target)) typed.set(event.target, event.target.value);
  };
  document.addEventListener("input", note, true);
  let deadline = 0;
  const giveBack = () => {
    for (const [field, value] of typed) {
      if (!field.isConnected || field.disabled) {
        typed.delete(field);
        continue;
      }
      if (!isHydrated(field)) continue;
      typed.delete(field);
      // React notices a change against the value it last knew (its tracker); the field is given
      // the text through the prototype's setter, which the tracker does not see.
      (field as Field & { _valueTracker?: { setValue(value: string): void } })._valueTracker?.setValue(value === "" ? " " : "");
      const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
    // While fields wait for React (their part of the page hydrates a moment later), typing into
    // them is still noted and they are looked at again.
    const waiting = typed.size > 0 || [...document.querySelectorAll("input, textarea")].some((field) => isTextField(field) && !isHydrated(field));
    if (waiting && Date.now() < deadline) setTimeout(giveBack, 50);
    else document.removeEventListener("input", note, true);
  };
  return () => {
    if (deadline !== 0) return;
    deadline = Date.now() + WAIT_MS;
    giveBack();
  };
}
