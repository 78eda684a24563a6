import { describe, expect, it } from "vitest";
import { freeSubnet, isSpareNetwork, parsePool, subnetSlotOf } from "./engine.ts";

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

  it("passes over the asked number of free subnets, and takes the first when fewer are free", () => {
    expect(freeSubnet(pool, 28, ["10.213.0.16/28"], 2)).toBe("10.213.0.48/28");
    expect(freeSubnet(parsePool("10.213.7.0/26"), 28, ["10.213.7.0/28"], 5)).toBe("10.213.7.16/28");
  });

  it("starts from the asked subnet of the pool when told to, going round past its end", () => {
    const small = parsePool("10.213.7.0/26");
    expect(freeSubnet(small, 28, [], 0, 2)).toBe("10.213.7.32/28");
    expect(freeSubnet(small, 28, ["10.213.7.32/28", "10.213.7.48/28"], 0, 2)).toBe("10.213.7.0/28");
    expect(freeSubnet(small, 28, ["10.213.7.0/26"], 0, 3)).toBeNull();
  });

  it("places a shared network by its name alone: the same in every worker, and different names spread", () => {
    expect(subnetSlotOf("fs-prod-web", pool, 24)).toBe(subnetSlotOf("fs-prod-web", pool, 24));
    const slots = new Set(Array.from({ length: 50 }, (_, i) => subnetSlotOf(`fs-prod-job${i}`, pool, 24)));
    expect(slots.size).toBeGreaterThan(30);
    expect([...slots].every((slot) => slot >= 0 && slot < 256)).toBe(true);
  });

  it("refuses a pool that is not an IPv4 range", () => {
    expect(() => parsePool("10.213.0.0")).toThrow(/IPv4 range/);
  });
});

describe("isSpareNetwork", () => {
  it("knows the spare networks made ahead from a job's and a team's own", () => {
    expect(isSpareNetwork("fs-prod-spare-0123456789ab")).toBe(true);
    expect(isSpareNetwork("fs-prod-j3-t7")).toBe(false);
    expect(isSpareNetwork("fs-prod-j3")).toBe(false);
    expect(isSpareNetwork("spare-0123456789ab")).toBe(false);
  });
});
