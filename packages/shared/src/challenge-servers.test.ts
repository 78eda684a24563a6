import { describe, expect, it } from "vitest";
import { jobEngineKey, memoryBytes, memoryInUnits, ZJobSpec } from "./challenge-servers.ts";

const base = { name: "box", port: 8000, image: "local/box:1" };

describe("a job's per-team flag variable", () => {
  it("is absent by default and empty means none", () => {
    expect(ZJobSpec.parse(base).flag_env).toBeNull();
    expect(ZJobSpec.parse({ ...base, dedicated: true, flag_env: "" }).flag_env).toBeNull();
  });

  it("names a variable of a dedicated job", () => {
    expect(ZJobSpec.parse({ ...base, dedicated: true, flag_env: "FLAG" }).flag_env).toBe("FLAG");
  });

  it("is refused on a shared job, as a bad name, or when the environment already sets it", () => {
    const shared = ZJobSpec.safeParse({ ...base, flag_env: "FLAG" });
    expect(shared.success).toBe(false);
    expect(shared.error?.issues[0]?.path).toEqual(["flag_env"]);
    expect(ZJobSpec.safeParse({ ...base, dedicated: true, flag_env: "1FLAG" }).success).toBe(false);
    expect(ZJobSpec.safeParse({ ...base, dedicated: true, flag_env: "FLAG", env: { FLAG: "x" } }).success).toBe(false);
  });
});

describe("a job's warm pool", () => {
  it("is empty by default and reads digits from forms", () => {
    expect(ZJobSpec.parse(base).warm).toBe(0);
    expect(ZJobSpec.parse({ ...base, dedicated: true, warm: "50" }).warm).toBe(50);
  });

  it("is refused on a shared job, with a per-team flag, or out of range", () => {
    const shared = ZJobSpec.safeParse({ ...base, warm: 5 });
    expect(shared.error?.issues.map((i) => i.path)).toEqual([["warm"]]);
    const flagged = ZJobSpec.safeParse({ ...base, dedicated: true, warm: 5, flag_env: "FLAG" });
    expect(flagged.error?.issues.map((i) => i.path)).toEqual([["warm"]]);
    expect(flagged.error?.issues[0]?.message).toMatch(/own flag/);
    expect(ZJobSpec.safeParse({ ...base, dedicated: true, warm: -1 }).success).toBe(false);
    expect(ZJobSpec.safeParse({ ...base, dedicated: true, warm: 201 }).success).toBe(false);
    expect(ZJobSpec.safeParse({ ...base, dedicated: true, warm: 1.5 }).success).toBe(false);
  });
});

describe("job names and the engine names made from them", () => {
  it("takes any 1-64 printable characters as they are", () => {
    for (const name of ["my_chall", "Web 1 (hard)", "crypto/rsa#2", "Ünïcode ✓", "x".repeat(64)]) expect(ZJobSpec.parse({ ...base, name }).name).toBe(name);
  });

  it("refuses empty, blank, too long and control characters", () => {
    for (const name of ["", "   ", "x".repeat(65), "a\nb", "tab\there", "nul\u0000"]) expect(ZJobSpec.safeParse({ ...base, name }).success).toBe(false);
  });

  it("derives engine names from a slug and a short hash: safe for the engine, and names that slug alike stay apart", () => {
    expect(jobEngineKey("my_chall")).toMatch(/^my-chall-[0-9a-f]{8}$/);
    expect(jobEngineKey("My Chall")).toMatch(/^my-chall-[0-9a-f]{8}$/);
    expect(jobEngineKey("my_chall")).not.toBe(jobEngineKey("My Chall"));
    expect(jobEngineKey("my_chall")).toBe(jobEngineKey("my_chall"));
    expect(jobEngineKey("✓✓✓")).toMatch(/^job-[0-9a-f]{8}$/);
    expect(jobEngineKey("a very long job name that goes on")).toMatch(/^a-very-long-[0-9a-f]{8}$/);
  });
});

describe("job memory in MiB and GiB", () => {
  it("shows stored bytes as whole GiB when they are, else MiB", () => {
    expect(memoryInUnits(1_073_741_824)).toEqual({ amount: "1", unit: "GiB" });
    expect(memoryInUnits(33_554_432)).toEqual({ amount: "32", unit: "MiB" });
    expect(memoryInUnits(1_610_612_736)).toEqual({ amount: "1536", unit: "MiB" });
    expect(memoryInUnits(1_000_000)).toEqual({ amount: "0.95", unit: "MiB" });
  });

  it("turns a typed amount and unit into the bytes the server stores", () => {
    expect(memoryBytes("512", "MiB")).toBe(536_870_912);
    expect(memoryBytes(" 2 ", "GiB")).toBe(2_147_483_648);
    expect(memoryBytes("1.5", "GiB")).toBe(1_610_612_736);
    // What the form shows reads back to what was stored.
    const { amount, unit } = memoryInUnits(33_554_432);
    expect(memoryBytes(amount, unit)).toBe(33_554_432);
  });

  it("refuses what is not a number", () => {
    expect(memoryBytes("", "MiB")).toBeNull();
    expect(memoryBytes("1e3", "MiB")).toBeNull();
    expect(memoryBytes("-1", "GiB")).toBeNull();
    expect(memoryBytes("lots", "GiB")).toBeNull();
  });
});
