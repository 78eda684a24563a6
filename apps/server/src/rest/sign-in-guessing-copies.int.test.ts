import { createTestWorld, createUser, TEST_PASSWORD, type TestWorld } from "@flagship/api/testing";
import { testRedisUrl } from "@flagship/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ServerCopy, startServerCopy } from "../testing.ts";

/**
 * The per-account limit on wrong passwords is shared by every server copy through Redis: guesses
 * spread over two copies (and many addresses) count against one limit, and the block one copy
 * starts holds on the other.
 */
let world: TestWorld;
let copies: ServerCopy[] = [];

beforeAll(async () => {
  world = await createTestWorld();
  // Blocks are kept in Redis by account id, and one redis-server serves the whole test run: ids
  // far from other databases' keep this file's accounts apart from theirs.
  await world.services.db.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('users', 'id'), ${1_000_000 + Math.floor(Math.random() * 1_000_000_000)})`);
  const env = { DATABASE_URL: world.database.url, REDIS_URL: testRedisUrl(inject("redisUrl")), THROTTLE: "on", TRUST_PROXY: "1", THROTTLE_RATES: "login_account=4/hour" };
  copies = await Promise.all([0, 1].map(() => startServerCopy(env)));
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await world.close();
});

async function login(copy: ServerCopy, address: number, username: string, password: string): Promise<string> {
  const res = await fetch(`${copy.url}/api/v2/auth/login/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `192.0.2.${address}` },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { m: string };
  return `${res.status} ${body.m}`;
}

describe("wrong passwords for one account through two server copies", () => {
  it("count against one limit, and the block holds on both copies", async () => {
    const target = await createUser(world);
    const bystander = await createUser(world);
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push(await login(copies[i % 2]!, i + 1, target.username, `guess ${i}`));
    // Counted per copy, each copy would have let 4 through: 8 in all.
    expect(answers).toEqual(Array(4).fill("401 incorrect_username_or_password").concat(["429 throttled", "429 throttled"]));
    expect(await login(copies[0]!, 20, target.username, TEST_PASSWORD)).toBe("429 throttled");
    expect(await login(copies[1]!, 21, target.username, TEST_PASSWORD)).toBe("429 throttled");
    expect(await login(copies[1]!, 22, bystander.username, TEST_PASSWORD)).toBe("200 ");
  });
});
