import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ZCreateChallengeInput } from "./challenges.ts";
import { parseInput, readLenient } from "./validation.ts";

// The REST contract's Input rule: form values arrive as strings from RACTF's client.
describe("readLenient", () => {
  const schema = z.object({
    score: z.number().int(),
    ratio: z.number().optional(),
    hidden: z.boolean().default(false),
    limit: z.number().int().nullable(),
    name: z.string(),
    flag: z.union([z.string(), z.array(z.number())]),
    nested: z.object({ count: z.number() }).optional(),
    list: z.array(z.number()).optional(),
    map: z.record(z.string(), z.boolean()).optional(),
  });

  it("reads numeric strings as numbers and 'true'/'false' as booleans where the schema wants them", () => {
    expect(readLenient(schema, { score: "100", ratio: "0.2", hidden: "true", limit: "5", nested: { count: "3" }, list: ["1", "2"], map: { a: "false" } })).toEqual({
      score: 100,
      ratio: 0.2,
      hidden: true,
      limit: 5,
      nested: { count: 3 },
      list: [1, 2],
      map: { a: false },
    });
  });

  it("leaves text fields, mixed unions and unreadable values alone", () => {
    expect(readLenient(schema, { name: "100", flag: "123", score: "1e3", ratio: "", hidden: "yes", limit: "abc" })).toEqual({
      name: "100",
      flag: "123",
      score: "1e3",
      ratio: "",
      hidden: "yes",
      limit: "abc",
    });
  });

  it("makes parseInput accept form strings and refuse the rest with invalid", () => {
    expect(parseInput(ZCreateChallengeInput, { category: "4", name: "x", score: "100", hidden: "false", flag_metadata: { flag: "f" } })).toMatchObject({ category: 4, score: 100, hidden: false });
    for (const score of ["1e3", "", "abc"]) {
      expect(() => parseInput(ZCreateChallengeInput, { category: 4, name: "x", score, flag_metadata: { flag: "f" } })).toThrow(expect.objectContaining({ code: "invalid", details: { score: [expect.any(String)] } }));
    }
  });
});
