import { countdownFlags } from "@flagship/shared";
import { useMemo } from "react";
import { useEventTimes } from "../countdown/useCountdown.ts";
import { useClock } from "../../lib/render-clock.ts";
import { useAppData } from "../../shell/useAppData.ts";

/** Where the event stands: before the start, running, or over. */
export type EventPhase = "before" | "running" | "ended";

export interface EventMoment {
  phase: EventPhase;
  /** When the scoreboard froze (seconds), while players see it frozen; null when live. */
  frozenAt: number | null;
  /** The event's time zone (the config's `event_timezone`). */
  timeZone: string;
}

/**
 * The event's moment against the server's clock (the countdown's): it turns at the start, the
 * freeze and the end without a reload, and follows staff's schedule changes, which the socket
 * announces (event 9) so the config and the countdown are read again. A page reading it is drawn
 * again when the moment turns, not with every second of the clock.
 */
export function useEventMoment(): EventMoment | null {
  const { config } = useAppData();
  const { data, offset } = useEventTimes();
  const freeze = config?.scoreboard_freeze_time ?? null;
  const timeZone = config?.event_timezone ?? "UTC";
  const key = useClock((ms) => {
    if (!config || !data) return "";
    const now = ms / 1000 + offset;
    const flags = countdownFlags(data, now);
    const phase: EventPhase = !flags.countdown_timestamp ? "before" : flags.competition_end ? "ended" : "running";
    return `${phase} ${freeze !== null && freeze <= now ? "frozen" : "live"}`;
  });
  return useMemo(() => {
    if (!key) return null;
    const [phase, board] = key.split(" ") as [EventPhase, string];
    return { phase, frozenAt: board === "frozen" ? freeze : null, timeZone };
  }, [key, freeze, timeZone]);
}
