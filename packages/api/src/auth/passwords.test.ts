import { describe, expect, it } from "vitest";
import { heldHasher } from "../testing/held-hasher.ts";
import { configurePasswordHashing, DEFAULT_HASHING, defaultHashConcurrency, type Hasher, hashingLoad, hashPassword, verifyPassword } from "./passwords.ts";

/** Hashes that cost nothing: what is measured is how long the test holds them. */
const plain: Hasher = { hash: async (password) => `plain:${password}`, verify: async (hash, password) => hash === `plain:${password}` };

/** Lets queued work start (the pool starts it a microtask or so after it is queued). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the password hashing pool", () => {
  it("hashes on every core of a one- or two-core machine, and leaves one core free above that", () => {
    expect([1, 2, 3, 4, 8].map(defaultHashConcurrency)).toEqual([1, 2, 2, 3, 7]);
  });

  it("hashes at most `concurrency` at once, lets `maxWaiting` wait, and refuses more with throttled", async () => {
    const hash = await hashPassword("the pool's password");
    // No bound on the expected wait here: this is about the absolute cap, whatever argon2 costs.
    configurePasswordHashing({ concurrency: 1, maxWaiting: 3, maxWaitMs: Number.POSITIVE_INFINITY });
    let mostActive = 0;
    const sample = setInterval(() => (mostActive = Math.max(mostActive, hashingLoad().active)), 1);
    try {
      const attempts = Array.from({ length: 6 }, () => verifyPassword(hash, "the pool's password"));
      expect(hashingLoad().waiting).toBe(3);
      const settled = await Promise.allSettled(attempts);
      expect(settled.slice(0, 3)).toEqual(Array.from({ length: 3 }, () => ({ status: "fulfilled", value: true })));
      for (const refused of settled.slice(3)) expect(refused).toMatchObject({ status: "rejected", reason: { code: "throttled", status: 429 } });
      expect(mostActive).toBe(1);
      // Once the queue has drained, the pool takes new work again; a wrong password is still wrong.
      expect(hashingLoad()).toMatchObject({ active: 0, waiting: 0 });
      await expect(verifyPassword(hash, "not it")).resolves.toBe(false);
      await expect(verifyPassword(null, "anything")).resolves.toBe(false);
    } finally {
      clearInterval(sample);
      configurePasswordHashing(DEFAULT_HASHING);
    }
  }, 30_000); // five real argon2 hashes one after another: seconds on a busy machine

  it("refuses a hash whose expected wait, (queued + 1) / concurrency x the average hash, exceeds maxWaitMs", async () => {
    const hasher = heldHasher(plain);
    configurePasswordHashing({ concurrency: 2, maxWaiting: 1000, maxWaitMs: 0, hasher });
    try {
      // Before any hash has finished the average is unknown and only maxWaiting bounds the queue.
      expect(hashingLoad().averageMs).toBeNull();
      const first = Array.from({ length: 4 }, () => verifyPassword("plain:pw", "pw"));
      await settle();
      expect(hashingLoad()).toMatchObject({ active: 2, waiting: 2 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      while (hasher.running() > 0) {
        hasher.finishAll();
        await settle();
      }
      expect(await Promise.all(first)).toEqual([true, true, true, true]);
      const average = hashingLoad().averageMs ?? 0;
      expect(average).toBeGreaterThan(0);

      // Allow a wait of 1.5 averages: two running and three queued expect (3 + 1) / 2 = 2 averages
      // for the next one, which is refused; the fifth, at (2 + 1) / 2 = 1.5, is not.
      configurePasswordHashing({ maxWaitMs: average * 1.5 });
      const accepted = Array.from({ length: 5 }, () => verifyPassword("plain:pw", "pw"));
      const refused = verifyPassword("plain:pw", "pw");
      await expect(refused).rejects.toMatchObject({ code: "throttled", status: 429, retryAfter: Math.max(1, Math.ceil((2 * average) / 1000)) });
      await expect(refused).rejects.toThrow(/^Too many sign-ins at once\. Try again in \d+ seconds?\.$/);
      await settle();
      expect(hashingLoad()).toMatchObject({ active: 2, waiting: 3 });

      // Once the queue drains, the same hash is accepted again.
      while (hasher.running() > 0) {
        hasher.finishAll();
        await settle();
      }
      expect(await Promise.all(accepted)).toEqual([true, true, true, true, true]);
      expect(hashingLoad()).toMatchObject({ active: 0, waiting: 0 });
      const again = verifyPassword("plain:pw", "pw");
      await settle();
      hasher.finishAll();
      await expect(again).resolves.toBe(true);
    } finally {
      hasher.finishAll();
      configurePasswordHashing(DEFAULT_HASHING);
    }
  });
});
