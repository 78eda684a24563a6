/** Fields whose typed text is given back after hydration (not checkboxes, radios, files or buttons). */
const TEXT_TYPES = new Set(["text", "search", "email", "password", "url", "tel", "number"]);
/** How long after the page's first commit a field is waited for to hydrate. */
const WAIT_MS = 15_000;
/** How long a field given its text back is watched for losing it to React's commit of its hydration. */
const GIVEN_WATCHED_MS = 1_000;

type Field = HTMLInputElement | HTMLTextAreaElement;

declare global {
  interface Window {
    /** What the reader did before the app had hydrated the page, held by the page's start script (boot/start-after-paint.js). */
    flagshipHeld?: { type: "click" | "enter" | "submit"; target: HTMLElement };
  }
}

function isTextField(target: EventTarget | null): target is Field {
  return (target instanceof HTMLInputElement && TEXT_TYPES.has(target.type)) || target instanceof HTMLTextAreaElement;
}

/** Does again what the start script held: a click, Enter in a field, a form sent. */
function replay({ type, target }: NonNullable<Window["flagshipHeld"]>): void {
  if (type === "click") target.click();
  else if (type === "enter") target.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, cancelable: true }));
  else if (target instanceof HTMLFormElement) target.requestSubmit();
}

/** Whether React has taken the element over (it marks the elements it hydrated). */
function isHydrated(element: Element): boolean {
  return Object.keys(element).some((key) => key.startsWith("__reactFiber$"));
}

/**
 * What a reader types into a page the server drew before React has hydrated the field (a flag
 * pasted, a username typed on a slow phone) is in the field but not in React's state, and
 * hydration would empty it. Noted from the start (what was typed before this script ran, too); once
 * the page has committed (the returned function), each noted field is given its text back as an
 * input event, which the page's own handlers take as if it were typed then, as soon as React has
 * hydrated it: parts of a page inside a suspense boundary hydrate after the page's first commit.
 * What the reader did meanwhile (a tap on a button, Enter, a form sent), held by the page's start
 * script, is then done again.
 */
export function keepEarlyInput(): () => void {
  const typed = new Map<Field, string>();
  // Typed before this script ran: the field no longer holds what the server wrote in it.
  for (const field of document.querySelectorAll("input, textarea")) {
    if (isTextField(field) && field.value !== field.defaultValue) typed.set(field, field.value);
  }
  // Fields given their text back, and when: watched for a while in case they lose it again.
  const given = new Map<Field, { value: string; at: number }>();
  const note = (event: Event) => {
    if (!isTextField(event.target)) return;
    if (!isHydrated(event.target)) typed.set(event.target, event.target.value);
    // Once the reader types into a field given back, what it holds is theirs: no longer watched.
    else if (event.isTrusted) given.delete(event.target);
  };
  const give = (field: Field, value: string) => {
    // React notices a change against the value it last knew (its tracker); the field is given
    // the text through the prototype's setter, which the tracker does not see.
    (field as Field & { _valueTracker?: { setValue(value: string): void } })._valueTracker?.setValue(value === "" ? " " : "");
    const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  };
  // A form sent as the page hydrates (its button tapped, or Enter pressed, before the text typed
  // into it was given back) sends that text: its hydrated fields are given it first. This listener
  // runs before React's (the document's capture phase), and React commits a controlled field's
  // change within the input event, so the form's handler reads the text. Then, as a form sent may
  // empty its fields, they are no longer watched.
  const sent = (event: Event) => {
    for (const [field, value] of typed) {
      if (field.form !== event.target || !isHydrated(field)) continue;
      typed.delete(field);
      give(field, value);
    }
    for (const field of given.keys()) if (field.form === event.target) given.delete(field);
  };
  document.addEventListener("input", note, true);
  document.addEventListener("submit", sent, true);
  let deadline = 0;
  const giveBack = () => {
    const now = Date.now();
    // React marks a field while it renders the hydration, and writes a controlled field's value
    // when it commits that render, which may come a few slices later: text given back in between
    // is overwritten. A field given its text is watched for a moment and given it again if emptied.
    for (const [field, { value, at }] of given) {
      if (!field.isConnected || now - at > GIVEN_WATCHED_MS) given.delete(field);
      else if (field.value === "" && value !== "") give(field, value);
    }
    for (const [field, value] of typed) {
      if (!field.isConnected || field.disabled) {
        typed.delete(field);
        continue;
      }
      if (!isHydrated(field)) continue;
      typed.delete(field);
      give(field, value);
      given.set(field, { value, at: now });
    }
    // What the reader did before the page had hydrated (a button tapped, Enter pressed) is done
    // again once React has hydrated its target and every field has its text back: the page's
    // handlers take it as if done now.
    const held = window.flagshipHeld;
    if (held && (!held.target.isConnected || (isHydrated(held.target) && typed.size === 0))) {
      window.flagshipHeld = undefined;
      if (held.target.isConnected) replay(held);
    }
    // While fields wait for React (their part of the page hydrates a moment later), typing into
    // them is still noted and they are looked at again.
    const waiting = window.flagshipHeld !== undefined || typed.size > 0 || given.size > 0 || [...document.querySelectorAll("input, textarea")].some((field) => isTextField(field) && !isHydrated(field));
    if (waiting && Date.now() < deadline) setTimeout(giveBack, 50);
    else {
      document.removeEventListener("input", note, true);
      document.removeEventListener("submit", sent, true);
    }
  };
  return () => {
    if (deadline !== 0) return;
    deadline = Date.now() + WAIT_MS;
    giveBack();
  };
}
