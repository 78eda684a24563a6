import { DateTimePicker, type DateTimePickerProps } from "@mantine/dates";
import "@mantine/dates/styles.css";
import { typedPickerTime } from "@flagship/shared";
import { type KeyboardEvent, type MouseEvent, useRef, useState } from "react";

export interface EventDateTimePickerProps extends Omit<DateTimePickerProps, "value" | "onChange"> {
  /** A local `YYYY-MM-DD HH:mm:ss` value, null when unset. */
  value: string | null;
  onChange(value: string | null): void;
  /** Said under the time when minutes are typed without an hour (the picker then stays open). */
  missingHourError: string;
}

const SUBMIT = "data-event-time-submit";

/**
 * Mantine's date-time picker, made to save the time its fields show. Two of its habits lost typed
 * times: a digit typed with the caret inside "00" (where a click leaves it) is read in the middle
 * ("010" is 10, "300" is 0), and a time with an empty field ("17:--") is never passed on, so the
 * check button kept the old one. Here a digit always goes after what the field holds, and on the
 * check button, Enter or closing, the fields as typed become the value: an hour alone is on the
 * hour; minutes without an hour are refused under the fields.
 */
export default function EventDateTimePicker({ value, onChange, missingHourError, timePickerProps, submitButtonProps, onDropdownClose, ...props }: EventDateTimePickerProps) {
  const hoursRef = useRef<HTMLInputElement>(null);
  const minutesRef = useRef<HTMLInputElement>(null);
  const [missingHour, setMissingHour] = useState(false);
  // The field entered (focused or clicked) and not typed in since: its next digit starts afresh.
  const fresh = useRef<EventTarget | null>(null);

  /** Puts the typed fields into the value; false when they cannot make a time. */
  const commitTyped = (): boolean => {
    // The fields are gone once the calendar shows months or years instead of days.
    if (!hoursRef.current || !minutesRef.current) return true;
    const typed = typedPickerTime(value, hoursRef.current.value, minutesRef.current.value, new Date());
    if ("missing" in typed) {
      setMissingHour(true);
      hoursRef.current.focus();
      return false;
    }
    setMissingHour(false);
    if (typed.value !== value) onChange(typed.value);
    return true;
  };

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || field.getAttribute("role") !== "spinbutton") return;
    if (/^\d$/.test(event.key)) {
      setMissingHour(false);
      // The field reads all its digits left to right, so where the caret is decides the number: the
      // first digit typed in a field replaces what it holds, each next one goes last (a caret left
      // inside "00" by a click made "010", 10, of a typed 1).
      if (fresh.current === field) field.select();
      else field.setSelectionRange(field.value.length, field.value.length);
      fresh.current = null;
    } else if (event.key === "Enter" && !commitTyped()) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const enter = (event: { target: EventTarget }) => {
    if (event.target instanceof HTMLInputElement && event.target.getAttribute("role") === "spinbutton") fresh.current = event.target;
  };

  const onClickCapture = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target instanceof Element && event.target.closest(`[${SUBMIT}]`) && !commitTyped()) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  return (
    // The dropdown is portalled, but React passes its events through this wrapper all the same.
    <div onKeyDownCapture={onKeyDownCapture} onClickCapture={onClickCapture} onFocusCapture={enter} onMouseDownCapture={enter}>
      <DateTimePicker
        {...props}
        // Days of the next and previous months would be drawn faint, and weekends in a light red,
        // both below a readable contrast.
        hideOutsideDates
        weekendDays={[]}
        value={value}
        onChange={(picked) => onChange(picked as string | null)}
        onDropdownClose={() => {
          commitTyped();
          setMissingHour(false);
          onDropdownClose?.();
        }}
        submitButtonProps={{ ...submitButtonProps, [SUBMIT]: true } as typeof submitButtonProps}
        timePickerProps={{
          ...timePickerProps,
          hoursRef,
          minutesRef,
          error: missingHour ? missingHourError : undefined,
        }}
      />
    </div>
  );
}
