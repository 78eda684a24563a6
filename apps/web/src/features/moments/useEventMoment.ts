import { useCountdown } from "../countdown/useCountdown.ts";
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
 * announces (event 9) so the config and the countdown are read again.
 */
export function useEventMoment(): EventMoment | null {
  const { config } = useAppData();
  const { flags, now } = useCountdown();
  if (!config || !flags) return null;
  const phase: EventPhase = !flags.countdown_timestamp ? "before" : flags.competition_end ? "ended" : "running";
  const freeze = config.scoreboard_freeze_time ?? null;
  return { phase, frozenAt: freeze !== null && freeze <= now ? freeze : null, timeZone: config.event_timezone ?? "UTC" };
}
