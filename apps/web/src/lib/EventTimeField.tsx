import { Group, Input, Skeleton, Stack, Text } from "@mantine/core";
import { pickerValue, secondsFromPicker } from "@flagship/shared";
import { lazy, type ReactNode, Suspense, useId } from "react";
import { formatDuration } from "./duration.ts";
import { useTranslation } from "./i18n.ts";
import "./event-time-texts.ts";

export interface EventTimeFieldProps {
  label: string;
  description?: ReactNode;
  /** Seconds since the epoch; null when not set. */
  value: number | null;
  /** Called with the picked time in seconds, or null when cleared. */
  onChange(seconds: number | null): void;
  /** A field error, shown under the field (the field is marked invalid). */
  error?: ReactNode;
  /** The field may be left empty (a clear button is offered); true unless `required`. */
  required?: boolean;
  /** The start of the span this field ends: with both set, the span's length is shown under it. */
  spanStart?: number | null;
  /** For tests and labels: set on the picker's button. */
  "data-testid"?: string;
}

// The calendar and its date library load with the first time field drawn, not with the page's first load.
const LazyPicker = lazy(() => import("./date-time-picker.tsx"));

/** The field's frame while the picker loads, so nothing moves when it arrives. */
function PickerPlaceholder({ label, description, required }: { label: string; description?: ReactNode; required: boolean }) {
  return (
    <Input.Wrapper label={label} description={description} required={required}>
      <Skeleton h={36} radius="sm" />
    </Input.Wrapper>
  );
}

function formatInstant(language: string, seconds: number, timeZone?: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", ...(timeZone && { timeZone }) }).format(new Date(seconds * 1000));
}

/**
 * A date-time picker for one of the event's times (start, end, registration, freeze): the picked
 * time is in the browser's time zone, shown back in that zone and in UTC so an organiser sees
 * what players elsewhere get; with `spanStart`, the length of the span ending here is shown too.
 */
export function EventTimeField({ label, description, value, onChange, error, required = false, spanStart, "data-testid": testId }: EventTimeFieldProps) {
  const { t, i18n } = useTranslation();
  // The popover's dialog is named by the field's button (its target): both take this id.
  const id = useId();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const language = i18n.language;
  const span = value !== null && spanStart !== null && spanStart !== undefined && value > spanStart ? value - spanStart : null;
  return (
    <Stack gap={4}>
      <Suspense fallback={<PickerPlaceholder label={label} description={description} required={required} />}>
        <LazyPicker
          label={label}
          description={description}
          placeholder={t("event_time.placeholder")}
          value={pickerValue(value)}
          onChange={(picked) => onChange(secondsFromPicker(picked))}
          missingHourError={t("event_time.missing_hour")}
          valueFormat="YYYY-MM-DD HH:mm"
          clearable={!required}
          required={required}
          error={error}
          // A popover on a phone too (the calendar fits 320 px): Mantine's modal brings a second
          // banner landmark (its <header>) beside the app's.
          id={id}
          popoverProps={{ id }}
          clearButtonProps={{ "aria-label": t("event_time.clear", { label }) }}
          timePickerProps={{ hoursInputLabel: t("event_time.hours"), minutesInputLabel: t("event_time.minutes"), withDropdown: false }}
          submitButtonProps={{ "aria-label": t("event_time.choose") }}
          ariaLabels={{
            nextMonth: t("event_time.next_month"),
            previousMonth: t("event_time.previous_month"),
            nextYear: t("event_time.next_year"),
            previousYear: t("event_time.previous_year"),
            nextDecade: t("event_time.next_decade"),
            previousDecade: t("event_time.previous_decade"),
            monthLevelControl: t("event_time.month_level"),
            yearLevelControl: t("event_time.year_level"),
          }}
          data-testid={testId}
        />
      </Suspense>
      {value !== null && (
        <Group gap="xs" wrap="wrap" data-testid={testId ? `${testId}-preview` : undefined}>
          <Text size="xs" c="dimmed">
            {t("event_time.local", { zone, time: formatInstant(language, value) })}
          </Text>
          <Text size="xs" c="dimmed" aria-hidden="true">
            ·
          </Text>
          <Text size="xs" c="dimmed">
            {t("event_time.utc", { time: formatInstant(language, value, "UTC") })}
          </Text>
          {span !== null && (
            <Text size="xs" fw={600} w="100%">
              {t("event_time.length", { length: formatDuration(t, span) })}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}

export interface EventSpanFieldsProps {
  /** The event's start and end in seconds since the epoch; null when not set. */
  start: number | null;
  end: number | null;
  onStartChange(seconds: number | null): void;
  onEndChange(seconds: number | null): void;
  startLabel: string;
  endLabel: string;
  startDescription?: ReactNode;
  endDescription?: ReactNode;
  /** Errors from the form or the server; without an end error, an end at or before the start is reported here. */
  startError?: ReactNode;
  endError?: ReactNode;
  /** Both times must be set. */
  required?: boolean;
}

/**
 * The event's start and end side by side (stacked on a phone), the end showing the event's length
 * and refusing, as a field error, to come at or before the start. The form that holds it must still
 * refuse to save such a pair (`scheduleProblems` in @flagship/shared judges it).
 */
export function EventSpanFields({ start, end, onStartChange, onEndChange, startLabel, endLabel, startDescription, endDescription, startError, endError, required }: EventSpanFieldsProps) {
  const { t } = useTranslation();
  const backwards = start !== null && end !== null && end <= start ? t("event_time.problems.end_before_start") : undefined;
  return (
    <Group grow align="flex-start" gap="md" wrap="wrap" preventGrowOverflow={false} style={{ rowGap: "var(--mantine-spacing-md)" }}>
      <div style={{ minWidth: "min(16rem, 100%)" }}>
        <EventTimeField label={startLabel} description={startDescription} value={start} onChange={onStartChange} error={startError} required={required} data-testid="event-start" />
      </div>
      <div style={{ minWidth: "min(16rem, 100%)" }}>
        <EventTimeField label={endLabel} description={endDescription} value={end} onChange={onEndChange} error={endError ?? backwards} required={required} spanStart={start} data-testid="event-end" />
      </div>
    </Group>
  );
}
