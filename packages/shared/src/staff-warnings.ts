import type { Config } from "./config.ts";
import { eventGates } from "./event-gates.ts";

export type StaffWarning = "scoring_disabled" | "flag_submission_disabled" | "maintenance" | "challenges_locked" | "registration_locked";

/** How loud each warning is: locked registration is the one that turns players away. */
export const STAFF_WARNING_LEVEL: Record<StaffWarning, "warning" | "danger"> = {
  scoring_disabled: "warning",
  flag_submission_disabled: "warning",
  maintenance: "warning",
  challenges_locked: "warning",
  registration_locked: "danger",
};

type WarningConfig = Pick<
  Config,
  "start_time" | "end_time" | "register_start_time" | "register_end_time" | "enable_scoring" | "enable_flag_submission" | "enable_maintenance_mode" | "enable_registration"
>;

/**
 * The warnings staff see above every page, judged at `now` (seconds): switches that are off while
 * the event runs, maintenance mode, challenges still locked before the start, registration closed.
 */
export function staffWarnings(config: WarningConfig, now: number): StaffWarning[] {
  const gates = eventGates(config, now);
  const running = gates.started && !gates.ended;
  const found: StaffWarning[] = [];
  if (running && !config.enable_scoring) found.push("scoring_disabled");
  if (running && !config.enable_flag_submission) found.push("flag_submission_disabled");
  if (config.enable_maintenance_mode) found.push("maintenance");
  if (!gates.started) found.push("challenges_locked");
  if (!config.enable_registration || !gates.registrationOpen) found.push("registration_locked");
  return found;
}
