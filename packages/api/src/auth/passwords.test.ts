import { describe, expect, it } from "vitest";
import { configurePasswordHashing, DEFAULT_HASHING, hashingLoad, hashPassword, verifyPassword } from "./passwords.ts";

describe("the password hashing pool", () => {
  it("hashes at most `concurrency` at once, lets `maxWaiting` wait, and refuses more with throttled", async () => {
    const hash = await hashPassword("the pool's password");
    configurePasswordHashing({ concurrency: 1, maxWaiting: 3 });
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
      expect(hashingLoad()).toEqual({ active: 0, waiting: 0 });
      await expect(verifyPassword(hash, "not it")).resolves.toBe(false);
      await expect(verifyPassword(null, "anything")).resolves.toBe(false);
    } finally {
      clearInterval(sample);
      configurePasswordHashing(DEFAULT_HASHING);
    }
  });
});
