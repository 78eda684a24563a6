/** The event's time gates, apart from the config schemas so the browser can judge them without zod. */

/** The config's event times, in seconds since the epoch; null is no gate. */
export interface EventTimes {
  start_time: number | null;
  end_time: number | null;
  register_start_time: number | null;
  register_end_time: number | null;
}

export interface Countdown {
  countdown_timestamp: number | null;
  registration_open: number | null;
  competition_end: number | null;
  /** The server's clock as an ISO 8601 string (RACTF's client reads it with `new Date(...)`). */
  server_timestamp: string;
}

/** The event gates, judged against `now` (seconds since the epoch). Null times are no gate. */
export function eventGates(config: EventTimes, now: number) {
  return {
    registrationOpen:
      (config.register_start_time === null || config.register_start_time <= now) &&
      (config.register_end_time === null || now < config.register_end_time),
    started: config.start_time === null || config.start_time <= now,
    ended: config.end_time !== null && config.end_time <= now,
  };
}
