import { describe, expect, it } from "vitest";
import {
  AppError,
  categoryProgress,
  cumulativeScore,
  parseInput,
  parseProfileParam,
  solveValue,
  ZCreateTeamInput,
  ZJoinTeamInput,
  ZMemberListInput,
  ZStaffUpdateMemberInput,
  ZTeamListInput,
} from "./index.ts";

function fieldError(schema: Parameters<typeof parseInput>[0], input: unknown): AppError {
  try {
    parseInput(schema, input);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a validation error");
}

describe("team input", () => {
  it("accepts a name of 36 characters and a secret of 8", () => {
    expect(parseInput(ZCreateTeamInput, { name: ` ${"a".repeat(36)} `, password: "12345678" })).toEqual({ name: "a".repeat(36), password: "12345678" });
  });
  it("names the contract's codes: required, blank, max_length, min_length", () => {
    expect(fieldError(ZCreateTeamInput, { password: "12345678" }).code).toBe("required");
    expect(fieldError(ZCreateTeamInput, { name: "   ", password: "12345678" }).code).toBe("blank");
    expect(fieldError(ZCreateTeamInput, { name: "a".repeat(37), password: "12345678" }).code).toBe("max_length");
    const short = fieldError(ZCreateTeamInput, { name: "ok", password: "1234567" });
    expect(short.code).toBe("min_length");
    expect(short.details).toEqual({ password: ["Ensure this field has at least 8 characters."] });
  });
  it("needs both join fields", () => {
    expect(fieldError(ZJoinTeamInput, { name: "x" }).code).toBe("required");
    expect(parseInput(ZJoinTeamInput, { name: " Team ", password: "p" })).toEqual({ name: "Team", password: "p" });
  });
});

describe("list input", () => {
  it("defaults and clamps the page, ignores unknown orderings", () => {
    expect(parseInput(ZMemberListInput, { limit: "5000", ordering: "password" })).toEqual({ limit: 1000, offset: 0, search: undefined, ordering: undefined });
    expect(parseInput(ZTeamListInput, { search: " red " })).toEqual({ limit: 100, offset: 0, search: "red" });
  });
});

describe("staff member input", () => {
  it("checks the profile limits", () => {
    expect(fieldError(ZStaffUpdateMemberInput, { bio: "x".repeat(401) }).code).toBe("max_length");
    expect(fieldError(ZStaffUpdateMemberInput, { discordid: "12ab" }).code).toBe("invalid");
    expect(fieldError(ZStaffUpdateMemberInput, { email: "not-an-email" }).code).toBe("invalid");
    expect(parseInput(ZStaffUpdateMemberInput, { team: null, is_visible: false })).toEqual({ team: null, is_visible: false });
  });
});

describe("parseProfileParam", () => {
  it.each([
    ["me", "me"],
    ["12", 12],
    ["ada", { name: "ada" }],
    ["Ada Lovelace", { name: "Ada Lovelace" }],
    ["0", { name: "0" }],
    ["1e3", { name: "1e3" }],
    ["", null],
    ["  ", null],
    ["x".repeat(101), null],
  ])("%s -> %o", (value, expected) => expect(parseProfileParam(value)).toEqual(expected));
});

describe("cumulativeScore", () => {
  it("sorts by time and keeps a running total", () => {
    expect(
      cumulativeScore([
        { points: 50, timestamp: "2030-01-01T00:02:00Z" },
        { points: 100, timestamp: new Date("2030-01-01T00:01:00Z") },
        { points: -20, timestamp: "2030-01-01T00:03:00Z" },
      ]),
    ).toEqual([
      { timestamp: "2030-01-01T00:01:00.000Z", points: 100 },
      { timestamp: "2030-01-01T00:02:00.000Z", points: 150 },
      { timestamp: "2030-01-01T00:03:00.000Z", points: 130 },
    ]);
    expect(cumulativeScore([])).toEqual([]);
  });
});

describe("categoryProgress", () => {
  it("counts solves and points per category and drops empty categories", () => {
    expect(
      categoryProgress(
        [
          { id: 1, name: "Web", total: 3 },
          { id: 2, name: "Empty", total: 0 },
          { id: 3, name: "Crypto", total: 2 },
        ],
        [
          { categoryId: 1, points: 100 },
          { categoryId: 1, points: 50 },
        ],
      ),
    ).toEqual([
      { id: 1, name: "Web", total: 3, solved: 2, points: 150 },
      { id: 3, name: "Crypto", total: 2, solved: 0, points: 0 },
    ]);
  });
});

describe("solveValue", () => {
  it("subtracts the penalty but never goes below zero", () => {
    expect(solveValue({ points: 100, penalty: 30 })).toBe(70);
    expect(solveValue({ points: 10, penalty: 30 })).toBe(0);
  });
});
