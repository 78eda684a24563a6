import { describe, expect, it } from "vitest";
import { parseConfigValue } from "./config.ts";

describe("the theme config key", () => {
  const theme = { primary: "#112233", secondary: "#445566", success: "#00aa00", info: "#0000ff", warning: "#ffaa00", danger: "#ff0000", dark: "#000000", light: "#ffffff", sidebarType: "dark" };

  it("accepts a full palette with a sidebar type, and null for the built-in theme", () => {
    expect(parseConfigValue("theme", theme)).toEqual(theme);
    expect(parseConfigValue("theme", null)).toBeNull();
  });

  it("refuses colours that are not #rrggbb, missing colours and unknown sidebar types", () => {
    expect(() => parseConfigValue("theme", { ...theme, primary: "blue" })).toThrow();
    const { danger: _missing, ...partial } = theme;
    expect(() => parseConfigValue("theme", partial)).toThrow();
    expect(() => parseConfigValue("theme", { ...theme, sidebarType: "rainbow" })).toThrow();
  });
});
