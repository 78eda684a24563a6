import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { combineCtfdFlags, CTFD_TABLES, ctfdDecayConstant, type CtfdTables, escapeRegex, mapCtfdExport } from "./ctfd.ts";
import { decayValue } from "./scoring.ts";

const fullMatch = (pattern: string, input: string) => RE2JS.compile(pattern).matches(input);

function tables(rows: Partial<CtfdTables>): CtfdTables {
  return { ...(Object.fromEntries(CTFD_TABLES.map((t) => [t, []])) as unknown as CtfdTables), ...rows };
}

describe("combineCtfdFlags", () => {
  it("keeps one case-sensitive static flag as plaintext", () => {
    expect(combineCtfdFlags([{ type: "static", content: "flag{a.b}", caseInsensitive: false }])).toEqual({ flag_type: "plaintext", flag: "flag{a.b}" });
    expect(combineCtfdFlags([])).toBeNull();
  });

  it("turns case-insensitive, regex and several flags into one pattern with CTFd's whole-answer matching", () => {
    const result = combineCtfdFlags([
      { type: "static", content: "flag{a.b}", caseInsensitive: true },
      { type: "regex", content: "flag\\{[0-9]+\\}", caseInsensitive: false },
      { type: "static", content: "x+y", caseInsensitive: false },
    ]);
    expect(result).toEqual({ flag_type: "regex", flag: "(?i:flag\\{a\\.b\\})|(?:flag\\{[0-9]+\\})|(?:x\\+y)" });
    const pattern = (result as { flag: string }).flag;
    expect(["FLAG{A.B}", "flag{42}", "x+y"].map((s) => fullMatch(pattern, s))).toEqual([true, true, true]);
    expect(["flag{aXb}", "FLAG{42}", "xxy", "flag{42}!"].map((s) => fullMatch(pattern, s))).toEqual([false, false, false, false]);
  });

  it("reports patterns RE2 cannot run and patterns grown too long", () => {
    expect(combineCtfdFlags([{ type: "regex", content: "(a)\\1", caseInsensitive: false }])).toEqual({ error: expect.stringMatching(/RE2 syntax/) });
    const many = Array.from({ length: 40 }, (_, i) => ({ type: "static", content: `flag{${"x".repeat(20)}${i}}`, caseInsensitive: false }));
    expect(combineCtfdFlags(many)).toEqual({ error: "Together the flags are longer than the 1000 characters a pattern may have." });
  });

  it("escapes every RE2 metacharacter", () => {
    const text = "\\^$.|?*+()[]{}";
    expect(fullMatch(escapeRegex(text), text)).toBe(true);
  });
});

describe("ctfdDecayConstant", () => {
  it("loses half the range after as many solves as CTFd's curve does", () => {
    // Logarithmic (a parabola): halfway after decay/sqrt(2) solves past the first.
    const c = ctfdDecayConstant(500, 100, 10, "logarithmic");
    // 7.07 solves, so at the nearest whole number of solves the value is a point or two off.
    expect(Math.abs(decayValue(500, 1 + Math.round(10 / Math.SQRT2), { decayConstant: c, minPoints: 100 }) - 300)).toBeLessThanOrEqual(2);
    expect(decayValue(500, 100, { decayConstant: c, minPoints: 100 })).toBe(100);
    // Linear: 20 points a solve from 500 to 100 is halfway after 10 solves past the first.
    const linear = ctfdDecayConstant(500, 100, 20, "linear");
    expect(decayValue(500, 11, { decayConstant: linear, minPoints: 100 })).toBe(300);
  });

  it("does not decay without a range or a decay", () => {
    expect(ctfdDecayConstant(100, 100, 10, "logarithmic")).toBe(1);
    expect(ctfdDecayConstant(500, 100, 0, "logarithmic")).toBe(1);
  });
});

describe("mapCtfdExport", () => {
  it("gives every player of a user-mode event a team of one, and keeps solves in time order", () => {
    const mapping = mapCtfdExport(
      tables({
        config: [{ key: "user_mode", value: "users" }],
        challenges: [{ id: 7, name: "One", value: 10, category: "", type: "standard", state: "visible" }],
        flags: [{ id: 1, challenge_id: 7, type: "static", content: "f", data: "" }],
        users: [
          { id: 1, name: "solo", email: "solo@x.example", type: "user", team_id: null },
          { id: 2, name: "duo", email: "duo@x.example", type: "user", team_id: null },
        ],
        submissions: [
          { id: 10, date: "2024-01-01T10:00:00" },
          { id: 11, date: "2024-01-01T09:00:00" },
        ],
        solves: [
          { id: 10, challenge_id: 7, user_id: 1 },
          { id: 11, challenge_id: 7, user_id: 2 },
        ],
      }),
      { players: true, uploads: new Set(), taken: { usernames: new Set(), emails: new Set(), teams: new Set(["solo"]) } },
    );
    expect(mapping.report.mode).toBe("users");
    expect(mapping.categories.map((c) => c.name)).toEqual(["Uncategorised"]);
    // "solo" is taken as a team name here, so the team gets the player's CTFd id as a suffix.
    expect(mapping.teams.map((t) => [t.id, t.name])).toEqual([
      [1, "solo#1"],
      [2, "duo"],
    ]);
    expect(mapping.users.map((u) => [u.username, u.team])).toEqual([
      ["solo", 1],
      ["duo", 2],
    ]);
    expect(mapping.solves.map((s) => [s.user, s.at?.toISOString()])).toEqual([
      [2, "2024-01-01T09:00:00.000Z"],
      [1, "2024-01-01T10:00:00.000Z"],
    ]);
    expect(mapping.report.notes[0]).toMatch(/user mode/);
  });
});
