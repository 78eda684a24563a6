import { describe, expect, it } from "vitest";
import { CONFIG_DEFAULTS } from "./config.ts";
import { staffWarnings } from "./staff-warnings.ts";

const NOW = 2_000_000_000;

describe("staff warnings", () => {
  it("says nothing for a running event with everything on", () => {
    expect(staffWarnings(CONFIG_DEFAULTS, NOW)).toEqual([]);
  });

  it("warns of scoring and flag submission switched off only while the event runs", () => {
    const off = { ...CONFIG_DEFAULTS, enable_scoring: false, enable_flag_submission: false };
    expect(staffWarnings(off, NOW)).toEqual(["scoring_disabled", "flag_submission_disabled"]);
    expect(staffWarnings({ ...off, end_time: NOW - 1 }, NOW)).toEqual([]);
    expect(staffWarnings({ ...off, start_time: NOW + 60 }, NOW)).toEqual(["challenges_locked"]);
  });

  it("warns of maintenance mode, locked challenges before the start and closed registration", () => {
    expect(staffWarnings({ ...CONFIG_DEFAULTS, enable_maintenance_mode: true }, NOW)).toEqual(["maintenance"]);
    expect(staffWarnings({ ...CONFIG_DEFAULTS, start_time: NOW + 1 }, NOW)).toEqual(["challenges_locked"]);
    expect(staffWarnings({ ...CONFIG_DEFAULTS, enable_registration: false }, NOW)).toEqual(["registration_locked"]);
    expect(staffWarnings({ ...CONFIG_DEFAULTS, register_end_time: NOW }, NOW)).toEqual(["registration_locked"]);
    expect(staffWarnings({ ...CONFIG_DEFAULTS, register_start_time: NOW + 10 }, NOW)).toEqual(["registration_locked"]);
  });
});
