import { describe, expect, it } from "vitest";
import { freeSubnet, parsePool } from "./engine.ts";

describe("freeSubnet", () => {
  const pool = parsePool("10.213.0.0/16");

  it("hands out the first subnet of the asked size that overlaps nothing", () => {
    expect(freeSubnet(pool, 24, [])).toBe("10.213.0.0/24");
    expect(freeSubnet(pool, 24, ["10.213.0.0/24", "172.17.0.0/16"])).toBe("10.213.1.0/24");
    expect(freeSubnet(pool, 28, ["10.213.0.0/24", "10.213.1.0/28"])).toBe("10.213.1.16/28");
  });

  it("skips subnets inside a larger used range and answers null when the pool is full", () => {
    expect(freeSubnet(pool, 28, ["10.213.0.0/17"])).toBe("10.213.128.0/28");
    expect(freeSubnet(pool, 24, ["10.0.0.0/8"])).toBeNull();
    expect(freeSubnet(parsePool("10.213.7.0/24"), 28, Array.from({ length: 16 }, (_, i) => `10.213.7.${i * 16}/28`))).toBeNull();
  });

  it("refuses a pool that is not an IPv4 range", () => {
    expect(() => parsePool("10.213.0.0")).toThrow(/IPv4 range/);
  });
});
