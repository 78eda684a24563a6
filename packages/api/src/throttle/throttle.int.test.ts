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

describe("guesses at a secret (Throttle.guess)", () => {
  /** Each guess in turn, wrong unless `right` names its index: "wrong", "right" or the refusal's code and Retry-After. */
  async function guesses(t: Throttle, actor: Actor, subjects: string[], times: number, right = -1) {
    const results = await Promise.allSettled(
      Array.from({ length: times }, async (_, i) => {
        const guess = await t.guess({ actor, ip: null }, "team_join", subjects);
        if (i !== right) return "wrong";
        await guess.right();
        return "right";
      }),
    );
    return results.map((r) => (r.status === "fulfilled" ? r.value : `${(r.reason as { code: string }).code} ${(r.reason as { retryAfter: number }).retryAfter}`));
  }

  it("lets the rate's wrong guesses through, then blocks each subject for a wait that doubles with each block", async () => {
    const t = throttle({ enabled: true, rates: "team_join=3/2s" });
    const blocks: unknown[] = [];
    const guess = () => t.guess({ actor: player, ip: null }, "team_join", ["user:1", "team:1"], { onBlock: async (block) => void blocks.push(block) });
    // Windows are aligned to the clock: start each run of guesses at the start of one.
    const freshWindow = () => new Promise((resolve) => setTimeout(resolve, 2000 - (Date.now() % 2000)));
    await freshWindow();
    for (let i = 0; i < 3; i++) await guess();
    await expect(guess()).rejects.toMatchObject({ code: "throttled", retryAfter: 2 });
    expect(blocks).toEqual([
      { subject: "user:1", failures: 3, seconds: 2, blocks: 1 },
      { subject: "team:1", failures: 3, seconds: 2, blocks: 1 },
    ]);
    // Blocked: every guess, even the right one, waits out the block.
    await expect(guess()).rejects.toMatchObject({ code: "throttled" });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await freshWindow();
    for (let i = 0; i < 3; i++) await guess();
    await expect(guess()).rejects.toMatchObject({ code: "throttled", retryAfter: 4 });
    expect(blocks.slice(2)).toEqual([
      { subject: "user:1", failures: 3, seconds: 4, blocks: 2 },
      { subject: "team:1", failures: 3, seconds: 4, blocks: 2 },
    ]);
  }, 15_000);

  it("never blocks for longer than maxBlockSeconds, however long the window", async () => {
    const t = throttle({ enabled: true, rates: "login_account=1/hour" });
    const anonymous = { actor: null, ip: null };
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await t.guess(anonymous, "login_account", [`user:cap${i}`], { maxBlockSeconds: 5 });
      await t.guess(anonymous, "login_account", [`user:cap${i}`], { maxBlockSeconds: 5 }).catch((error: { retryAfter: number }) => waits.push(error.retryAfter));
    }
    expect(waits).toEqual([5, 5, 5]);
  });

  it("blocks the team for every account and the account for every team", async () => {
    const t = throttle({ enabled: true, rates: "team_join=2/hour" });
    const other = { id: 70, isStaff: false } as Actor;
    expect(await guesses(t, player, ["user:7", "team:2"], 3)).toEqual(["wrong", "wrong", "throttled 3600"]);
    expect(await guesses(t, other, ["user:70", "team:2"], 1)).toEqual(["throttled 3600"]);
    expect(await guesses(t, player, ["user:7", "team:3"], 1)).toEqual(["throttled 3600"]);
    expect(await guesses(t, other, ["user:70", "team:3"], 1)).toEqual(["wrong"]);
  });

  it("does not count right guesses, exempts staff and does nothing when switched off", async () => {
    const t = throttle({ enabled: true, rates: "team_join=2/hour" });
    for (let i = 0; i < 5; i++) expect(await guesses(t, player, ["user:8", "team:8"], 1, 0)).toEqual(["right"]);
    expect(await guesses(t, staff, ["user:9", "team:9"], 5)).toEqual(Array(5).fill("wrong"));
    const off = throttle({ enabled: false, rates: "team_join=2/hour" });
    expect(await guesses(off, player, ["user:10", "team:10"], 5)).toEqual(Array(5).fill("wrong"));
  });

  it("counts a burst of parallel guesses from two copies through Redis: the rate's number are compared, the rest refused", async () => {
    const redisUrl = testRedisUrl(inject("redisUrl"));
    const copyA = throttle({ enabled: true, redisUrl, rates: "team_join=10/min" });
    const copyB = throttle({ enabled: true, redisUrl, rates: "team_join=10/min" });
    const team = `team:${Math.random()}`;
    const blocks: string[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? copyA : copyB).guess({ actor: { id: 1000 + i, isStaff: false } as Actor, ip: null }, "team_join", [`user:${Math.random()}`, team], { onBlock: async (b) => void blocks.push(b.subject) })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    expect(refused).toHaveLength(50);
    for (const reason of refused) expect(reason).toMatchObject({ code: "throttled", retryAfter: expect.any(Number) });
    expect(blocks).toEqual([team]);
    // The block is shared: the other copy refuses the next guess at the team too.
    await expect(copyA.guess({ actor: player, ip: null }, "team_join", ["user:77", team])).rejects.toMatchObject({ code: "throttled" });
  });
});
