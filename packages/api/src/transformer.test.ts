import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { transformer } from "./transformer.ts";

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const plain = [
  null,
  "text",
  0,
  -1.5,
  true,
  [],
  {},
  { count: 1000, count_capped: true, results: [{ key: "a1", flag: "flag{x}", ip: null, team: 3 }], next_cursor: "2026-11-29T00:00:00.000Z_a1" },
  [[1, [2, [3]]], { nested: { deeper: ["a", { b: false }] } }],
  { "dotted.key": 1, "__x": "y", "": "" },
];

const special = [
  new Date("2026-11-29T01:02:03Z"),
  { at: new Date(0) },
  { missing: undefined },
  [1, undefined, 3],
  Number.NaN,
  { n: Number.POSITIVE_INFINITY },
  { z: -0 },
  new Map([["a", 1]]),
  { set: new Set([1, 2]) },
  { big: 10n },
  { re: /a+b/gi },
];

/** Values superjson sends without types (an instance's fields, a hole as null): still through superjson, the same answer. */
// eslint-disable-next-line no-sparse-arrays
const notPlainObjects = [{ point: new Point(1, 2) }, Object.assign(Object.create(null) as object, { a: 1 }), [1, , 3]];

describe("the tRPC transformer", () => {
  it("answers plain JSON exactly as superjson does, and reads back the same", () => {
    for (const value of plain) {
      const ours = transformer.serialize(value);
      expect(ours).toEqual(superjson.serialize(value));
      expect(superjson.deserialize(ours)).toEqual(value);
    }
  });

  it("leaves everything else to superjson, which keeps its type across the wire", () => {
    for (const value of special) {
      const ours = transformer.serialize(value);
      expect(ours).toEqual(superjson.serialize(value));
      expect(ours.meta).toBeDefined();
      expect(transformer.deserialize(JSON.parse(JSON.stringify(ours)))).toEqual(value);
    }
  });

  it("leaves class instances, objects without a prototype and arrays with holes to superjson too", () => {
    for (const value of notPlainObjects) expect(transformer.serialize(value)).toEqual(superjson.serialize(value));
  });

  it("leaves a value nested deeper than any answer to superjson", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100; i++) deep = { deep };
    expect(superjson.deserialize(transformer.serialize(deep))).toEqual(deep);
  });
});
