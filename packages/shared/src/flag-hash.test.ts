import { describe, expect, it } from "vitest";
import { hashFlag } from "./flag-hash.ts";

describe("hashFlag", () => {
  it("is SHA-256 in lowercase hex", () => {
    expect(hashFlag("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashFlag("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("hashes the UTF-8 bytes, as the server hashes a submission (digests from Node's crypto)", () => {
    expect(hashFlag("flag{x}")).toBe("7644d4744c3ae2e47564e493f15496d84c90ddf870e564882596de965c7d062c");
    expect(hashFlag("flag{ünïcödé 🚩}")).toBe("8f77a2471dd6fd267fe87d114f61804d6cab6a8021492a01f49e05acd761bad7");
  });
});
