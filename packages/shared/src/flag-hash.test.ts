import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashFlag } from "./flag-hash.ts";

describe("hashFlag", () => {
  it("is SHA-256 in lowercase hex", () => {
    expect(hashFlag("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("hashes the UTF-8 bytes, as the server hashes a submission", () => {
    for (const flag of ["flag{x}", "flag{ünïcödé 🚩}", ""]) expect(hashFlag(flag)).toBe(createHash("sha256").update(flag, "utf8").digest("hex"));
  });
});
