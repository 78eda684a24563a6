import { TextInput, type TextInputProps } from "@mantine/core";
import type { FocusEvent, KeyboardEvent } from "react";

export type IntegerInputProps = Omit<TextInputProps, "value" | "onChange" | "type" | "inputMode" | "min" | "max"> & {
  /** A whole number, or "" while the field is empty. */
  value?: number | string | null;
  onChange(value: number | ""): void;
  min?: number;
  max?: number;
};

/**
 * A field for a whole number of at least `min` (0 or more): a text input with the numeric keyboard
 * that keeps only digits as they are typed, steps with the arrow keys and brings a value below
 * `min` up to it on blur. Instead of Mantine's NumberInput, whose number-formatting library is
 * more than a page with a count or two needs.
 */
export function IntegerInput({ value, onChange, min = 0, max = Number.MAX_SAFE_INTEGER, onBlur, onKeyDown, ...props }: IntegerInputProps) {
  const clamp = (n: number) => Math.min(Math.max(n, min), max);
  const current = typeof value === "number" ? value : value === "" || value === null || value === undefined ? null : Number(value);
  return (
    <TextInput
      {...props}
      inputMode="numeric"
      pattern="[0-9]*"
      value={current === null || Number.isNaN(current) ? "" : String(current)}
      onChange={(e) => {
        const digits = e.currentTarget.value.replace(/\D/g, "");
        // Capped as typed; the minimum waits for blur, so "1" can be typed on the way to "12".
        onChange(digits === "" ? "" : Math.min(Number(digits), max));
      }}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        onKeyDown?.(e);
        if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
        e.preventDefault();
        onChange(clamp((current ?? min) + (e.key === "ArrowUp" ? 1 : -1)));
      }}
      onBlur={(e: FocusEvent<HTMLInputElement>) => {
        if (current !== null && !Number.isNaN(current) && clamp(current) !== current) onChange(clamp(current));
        onBlur?.(e);
      }}
    />
  );
}
