import { describe, expect, it } from "vitest";
import { createTestServer } from "../testing.ts";

async function loginStatuses(trustProxy: string): Promise<number[]> {
  const server = await createTestServer({ THROTTLE: "on", THROTTLE_RATES: "login=2/hour", TRUST_PROXY: trustProxy });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await server.api("POST", "/auth/login/", {
        body: { username: "nobody", password: "wrong" },
        headers: { "x-forwarded-for": `203.0.113.${i + 1}` },
      });
      statuses.push(res.status);
    }
    return statuses;
  } finally {
    await server.close();
  }
}

describe("client addresses behind proxies", () => {
  it("ignores X-Forwarded-For by default, so a client cannot pick a fresh address per request", async () => {
    expect(await loginStatuses("false")).toEqual([401, 401, 429]);
  });
  it("trusts the configured number of proxy hops", async () => {
    expect(await loginStatuses("1")).toEqual([401, 401, 401]);
  });
});
