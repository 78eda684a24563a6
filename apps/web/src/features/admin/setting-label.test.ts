import { describe, expect, it } from "vitest";
import { i18n } from "../../lib/i18n.ts";
import { settingLabel } from "./setting-label.ts";
import "./texts.ts";

describe("settingLabel", () => {
  it("names a setting as the config editor does", () => {
    expect(settingLabel(i18n.t, "enable_flag_submission")).toBe("Flag submission");
    expect(settingLabel(i18n.t, "scoreboard_freeze_time")).toBe("Scoreboard freezes");
  });

  it("has no name for a key the editor does not list", () => {
    expect(settingLabel(i18n.t, "no_such_setting")).toBeUndefined();
  });
});
