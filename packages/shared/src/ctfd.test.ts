import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { codeBlock, combineCtfdFlags, CTFD_TABLES, type CtfdTables, mapCtfdExport } from "./ctfd.ts";
import { escapeRegex } from "./flag-format.ts";
import { challengeValue, ctfdDecayValue } from "./scoring.ts";

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

describe("CTFd's decay functions", () => {
  // Values computed with CTFd's decay.py for initial 500, minimum 100, decay 10 (logarithmic) or 20 (linear).
  it("gives the first solver the initial value and follows CTFd's curves", () => {
    const log = [1, 2, 3, 4, 5, 6, 8, 11, 12, 50].map((n) => ctfdDecayValue("logarithmic", 500, 100, 10, n));
    expect(log).toEqual([500, 496, 484, 464, 436, 400, 304, 100, 100, 100]);
    const linear = [1, 2, 11, 21, 22, 40].map((n) => ctfdDecayValue("linear", 500, 100, 20, n));
    expect(linear).toEqual([500, 480, 300, 100, 100, 100]);
    // Rounded up, as CTFd's math.ceil: 1000 - (900 / 49) * 9 = 834.69...
    expect(ctfdDecayValue("logarithmic", 1000, 100, 7, 4)).toBe(835);
    expect(ctfdDecayValue("linear", 100, 10, 7.5, 3)).toBe(85);
  });

  it("treats a decay of 0 as CTFd does", () => {
    expect(ctfdDecayValue("logarithmic", 500, 100, 0, 2)).toBe(100);
    expect(ctfdDecayValue("linear", 500, 100, 0, 30)).toBe(500);
  });

  it("is what a decay challenge with a decay_function is worth", () => {
    const meta = { flag: "x", decay_function: "logarithmic", decay: 10, min_points: 100 };
    expect([0, 1, 2, 6].map((n) => challengeValue("decay", 500, n, meta))).toEqual([500, 500, 496, 400]);
    expect(challengeValue("basic", 500, 6, meta)).toBe(500);
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

  const one = (row: Record<string, unknown>, extra: Partial<CtfdTables> = {}, players = false) =>
    mapCtfdExport(
      tables({
        challenges: [{ id: 7, name: "One", value: 100, category: "c", type: "standard", state: "visible", ...row }],
        flags: [
          { id: 1, challenge_id: 7, type: "static", content: "a", data: "" },
          { id: 2, challenge_id: 7, type: "static", content: "b", data: "" },
        ],
        ...extra,
      }),
      { players, uploads: new Set() },
    );

  it("skips challenges whose flag logic needs all flags or the whole team, with the reason", () => {
    const all = one({ logic: "all" });
    expect(all.report.mapped.challenges).toBe(0);
    expect(all.report.skipped).toEqual([expect.objectContaining({ kind: "challenge", count: 1, examples: ["One"], reason: expect.stringMatching(/every one of its flags/) })]);
    expect(one({ logic: "team" }).report.skipped[0]!.reason).toMatch(/every team member/);
    expect(one({ logic: "any" }).report.mapped.challenges).toBe(1);
  });

  it("treats a standard challenge with a linear or logarithmic function as decay, from the row's parameters", () => {
    const linear = one({ function: "linear", initial: 500, minimum: 100, decay: 20 });
    const challenge = linear.categories[0]!.challenges[0]!;
    expect(challenge.points_type).toBe("decay");
    expect(challenge.score).toBe(500);
    expect(challenge.flag_metadata).toMatchObject({ min_points: 100, decay_function: "linear", decay: 20 });
    expect(linear.report.mapped.decay).toBe(1);
    expect(one({ function: "static" }).categories[0]!.challenges[0]!.points_type).toBe("basic");
  });

  it("imports a challenge id that appears twice once", () => {
    const mapping = mapCtfdExport(
      tables({
        challenges: [
          { id: 7, name: "One", value: 10, type: "standard" },
          { id: 7, name: "Again", value: 10, type: "standard" },
        ],
        flags: [{ id: 1, challenge_id: 7, type: "static", content: "a" }],
      }),
      { players: false, uploads: new Set() },
    );
    expect(mapping.categories.flatMap((c) => c.challenges).map((c) => c.name)).toEqual(["One"]);
    expect(mapping.report.skipped).toEqual([expect.objectContaining({ kind: "challenge", examples: ["Again"], reason: expect.stringMatching(/same id/) })]);
  });

  it("puts connection info in a fence longer than any backtick run, and counts descriptions with HTML", () => {
    const info = "nc host 1337\n\n```` `x` ```";
    const mapping = one({ connection_info: info, description: "<p>Hello</p>" });
    const description = mapping.categories[0]!.challenges[0]!.description;
    expect(description).toBe(`<p>Hello</p>\n\n**Connection:**\n\n\`\`\`\`\`\n${info}\n\`\`\`\`\``);
    expect(codeBlock("plain")).toBe("```\nplain\n```");
    expect(mapping.report.notes).toContain("1 challenge description(s) contain HTML; descriptions here are Markdown, so check how they look.");
  });

  it("keeps a hint's prerequisites as positions among the hints kept, dropping one that is not imported", () => {
    const mapping = one(
      {},
      {
        hints: [
          { id: 11, challenge_id: 7, type: "standard", content: "", cost: 0, requirements: null },
          { id: 12, challenge_id: 7, type: "standard", content: "first", cost: 1, requirements: null },
          { id: 13, challenge_id: 7, type: "standard", content: "second", cost: 2, requirements: JSON.stringify({ prerequisites: [12, 11] }) },
        ],
      },
    );
    expect(mapping.categories[0]!.challenges[0]!.hints.map((h) => h.requirements)).toEqual([[], [0]]);
    expect(mapping.report.skipped).toContainEqual(expect.objectContaining({ kind: "prerequisite", examples: ["Hint 3 of One"], reason: expect.stringMatching(/not imported/) }));
  });

  it("links CTFd's next challenge when it is imported, and reports it when not", () => {
    expect(one({ next_id: 7 }).categories[0]!.challenges[0]!.next_challenge).toBeNull();
    const mapping = one({ next_id: 40 });
    expect(mapping.categories[0]!.challenges[0]!.next_challenge).toBeNull();
    expect(mapping.report.skipped).toContainEqual(expect.objectContaining({ kind: "next challenge", examples: ["One then #40"] }));
  });

  it("notes anonymized challenges when requirements is a JSON string", () => {
    const mapping = one({ requirements: JSON.stringify({ prerequisites: [], anonymize: true }) });
    expect(mapping.report.notes.some((n) => /1 challenge\(s\) were shown anonymously/.test(n))).toBe(true);
  });

  it("skips a user-mode player whose name and suffixed name are both taken as team names", () => {
    const mapping = mapCtfdExport(
      tables({
        config: [{ key: "user_mode", value: "users" }],
        users: [{ id: 1, name: "solo", email: "solo@x.example", type: "user" }],
      }),
      { players: true, uploads: new Set(), taken: { usernames: new Set(), emails: new Set(), teams: new Set(["solo", "solo#1"]) } },
    );
    expect(mapping.users).toEqual([]);
    expect(mapping.teams).toEqual([]);
    expect(mapping.report.skipped).toContainEqual(expect.objectContaining({ kind: "user", examples: ["solo"], reason: expect.stringMatching(/CTFd id added too/) }));
  });

  it("places solves without a date after the dated ones, and notes solves by hidden or banned players", () => {
    const mapping = one(
      {},
      {
        config: [{ key: "user_mode", value: "users" }],
        users: [
          { id: 1, name: "early", email: "e@x.example", type: "user" },
          { id: 2, name: "undated", email: "u@x.example", type: "user", hidden: true },
        ],
        solves: [
          { id: 10, challenge_id: 7, user_id: 2 },
          { id: 11, challenge_id: 7, user_id: 1, date: "2024-01-01T09:00:00" },
        ],
      },
      true,
    );
    expect(mapping.solves.map((s) => s.user)).toEqual([1, 2]);
    expect(mapping.report.notes).toContain("1 solve(s) have no date; they are placed after every dated solve.");
    expect(mapping.report.notes.some((n) => /1 solve\(s\) are by hidden or banned/.test(n))).toBe(true);
  });

  it("groups challenges of other CTFd states into one note", () => {
    const mapping = mapCtfdExport(
      tables({
        challenges: [
          { id: 1, name: "Same", value: 10, type: "standard", state: "locked" },
          { id: 2, name: "Same", value: 10, type: "standard", state: "locked" },
        ],
        flags: [
          { id: 1, challenge_id: 1, type: "static", content: "a" },
          { id: 2, challenge_id: 2, type: "static", content: "a" },
        ],
      }),
      { players: false, uploads: new Set() },
    );
    expect(mapping.report.notes).toEqual(['2 challenge(s) had a CTFd state other than visible or hidden and are imported hidden: "Same", "Same".']);
  });
});
