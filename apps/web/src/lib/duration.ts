import { durationParts } from "@flagship/shared";
import "./event-time-texts.ts";
import type { useTranslation } from "./i18n.ts";

type T = ReturnType<typeof useTranslation>["t"];

/** "2 days 3 hours 5 minutes", leaving out the parts that are zero (but never all of them). */
export function formatDuration(t: T, seconds: number): string {
  const { days, hours, minutes } = durationParts(seconds);
  const parts = [
    days > 0 && t("event_time.days", { count: days }),
    hours > 0 && t("event_time.hours", { count: hours }),
    (minutes > 0 || (days === 0 && hours === 0)) && t("event_time.minutes", { count: minutes }),
  ].filter((part): part is string => typeof part === "string");
  return parts.join(" ");
}
