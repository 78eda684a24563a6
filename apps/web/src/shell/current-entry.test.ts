import { describe, expect, it } from "vitest";
import { ariaCurrent, currentEntry } from "./current-entry.ts";

describe("currentEntry", () => {
  const me = { id: 7, teamId: 3 };

  it("marks a section's entry on every page of the section", () => {
    expect(currentEntry("/", me)).toBe("/");
    expect(currentEntry("/campaign", me)).toBe("/campaign");
    expect(currentEntry("/campaign/web/cookie-jar", me)).toBe("/campaign");
    expect(currentEntry("/settings/2fa", me)).toBe("/settings");
    expect(currentEntry("/admin/config", me)).toBe("/admin");
  });

  it("gives the team forms and the player's own team and profile to Team and Profile", () => {
    for (const path of ["/team", "/team/me", "/team/create", "/team/join", "/team/3"]) expect(currentEntry(path, me)).toBe("/team/me");
    for (const path of ["/profile", "/profile/me", "/profile/7"]) expect(currentEntry(path, me)).toBe("/profile/me");
  });

  it("gives other teams and players to the lists they are reached from", () => {
    expect(currentEntry("/team/4", me)).toBe("/teams");
    expect(currentEntry("/team/3", { id: 7, teamId: null })).toBe("/teams");
    expect(currentEntry("/profile/8", me)).toBe("/users");
    expect(currentEntry("/profile/8", null)).toBe("/users");
  });
});

describe("ariaCurrent", () => {
  it("is page on the link's own page and true elsewhere in its section", () => {
    expect(ariaCurrent("/team/me", "/team/me", true)).toBe("page");
    expect(ariaCurrent("/team/create", "/team/me", true)).toBe("true");
    expect(ariaCurrent("/leaderboard", "/team/me", false)).toBeUndefined();
  });
});
