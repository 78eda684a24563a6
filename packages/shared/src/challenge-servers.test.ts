import { describe, expect, it } from "vitest";
import { ZJobSpec } from "./challenge-servers.ts";

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
