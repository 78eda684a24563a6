import { eventGates, type EventTimes } from "./event-gates.ts";

/**
 * Whether pages offer sign-up: registration on and its window open; once the event is over, only
 * when staff set a closing time past the end on purpose (an unset closing time is no invitation
 * to join a finished event).
 */
export function offersSignUp(config: EventTimes & { enable_registration?: boolean | undefined }, now: number): boolean {
  const gates = eventGates(config, now);
  return config.enable_registration !== false && gates.registrationOpen && (!gates.ended || config.register_end_time !== null);
}
