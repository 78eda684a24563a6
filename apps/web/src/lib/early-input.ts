/** Fields whose typed text is given back after hydration (not checkboxes, radios, files or buttons). */
const TEXT_TYPES = new Set(["text", "search", "email", "password", "url", "tel", "number"]);

type Field = HTMLInputElement | HTMLTextAreaElement;

function isTextField(target: EventTarget | null): target is Field {
  return (target instanceof HTMLInputElement && TEXT_TYPES.has(target.type)) || target instanceof HTMLTextAreaElement;
}

/**
 * What a reader types into a page the server drew before it has hydrated (a flag pasted, a
 * username typed on a slow phone) is in the field but not in React's state, and hydration would
 * empty it. From now until the returned function is called (once the page has hydrated), typed
 * text is noted; then each field still on the page is given its text back as an input event, which
 * the page's own handlers take as if it were typed then.
 */
export function keepEarlyInput(): () => void {
  const typed = new Map<Field, string>();
  const note = (event: Event) => {
    if (isTextField(event.target)) typed.set(event.target, event.target.value);
  };
  document.addEventListener("input", note, true);
  return () => {
    document.removeEventListener("input", note, true);
    for (const [field, value] of typed) {
      if (!field.isConnected || field.disabled) continue;
      // React notices a change against the value it last knew (its tracker); the field is given
      // the text through the prototype's setter, which the tracker does not see.
      (field as Field & { _valueTracker?: { setValue(value: string): void } })._valueTracker?.setValue(value === "" ? " " : "");
      const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
    typed.clear();
  };
}
