import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { Actor } from "../context.ts";
import { createThrottle, type Throttle } from "./throttle.ts";

const opened: Throttle[] = [];
function throttle(options: Parameters<typeof createThrottle>[0]): Throttle {
  const t = createThrottle(options);
  opened.push(t);
  return t;
}
afterAll(async () => {
  for (const t of opened) await t.close();
});

const player = { id: 7, isStaff: false } as Actor;
const staff = { id: 8, isStaff: true } as Actor;

async function outcomes(t: Throttle, ctx: { actor: Actor | null; ip: string | null }, scope: string, times: number) {
  const results = await Promise.allSettled(Array.from({ length: times }, () => t.check(ctx, scope)));
  return results.map((r) => (r.status === "fulfilled" ? "ok" : (r.reason as { code: string }).code));
}

describe("throttle (in memory)", () => {
  it("lets the configured number through per window, then answers throttled", async () => {
    const t = throttle({ enabled: true, rates: "login=3/hour" });
    const results = await outcomes(t, { actor: null, ip: "10.0.0.1" }, "login", 5);
    expect(results.filter((r) => r === "ok")).toHaveLength(3);
    expect(results.filter((r) => r === "throttled")).toHaveLength(2);
  });

  it("counts per IP when anonymous and per user when logged in", async () => {
    const t = throttle({ enabled: true, rates: "login=1/hour" });
    await t.check({ actor: null, ip: "10.0.0.2" }, "login");
    await t.check({ actor: null, ip: "10.0.0.3" }, "login");
    await t.check({ actor: player, ip: "10.0.0.2" }, "login");
    await expect(t.check({ actor: player, ip: "10.0.0.9" }, "login")).rejects.toMatchObject({ code: "throttled" });
  });

  it("exempts staff and does nothing when switched off", async () => {
    const t = throttle({ enabled: true, rates: "login=1/hour" });
    expect(await outcomes(t, { actor: staff, ip: null }, "login", 5)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    const off = throttle({ enabled: false, rates: "login=1/hour" });
    expect(await outcomes(off, { actor: null, ip: "10.0.0.4" }, "login", 5)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  });

  it("keeps scopes apart", async () => {
    const t = throttle({ enabled: true, rates: "login=1/hour,register=1/hour" });
    await t.check({ actor: null, ip: "10.0.0.5" }, "login");
    await t.check({ actor: null, ip: "10.0.0.5" }, "register");
    await expect(t.check({ actor: null, ip: "10.0.0.5" }, "register")).rejects.toMatchObject({ code: "throttled" });
  });
});

describe("throttle (Redis, shared by server copies)", () => {
  it("counts hits from two copies against one limit under concurrency", async () => {
    const redisUrl = testRedisUrl(inject("redisUrl"));
    const scope = `login`;
    const ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const copyA = throttle({ enabled: true, redisUrl, rates: "login=4/hour" });
    const copyB = throttle({ enabled: true, redisUrl, rates: "login=4/hour" });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? copyA : copyB).check({ actor: null, ip }, scope)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      Array(6).fill("throttled"),
    );
  });
});
