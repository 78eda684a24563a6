import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "@flagship/api/testing";
import { freePort } from "@flagship/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSocket } from "./realtime/ws-client.ts";
import { type ServerCopy, startServerCopy } from "./testing.ts";

/**
 * Two server copies on one real redis-server of this test's own, which is stopped and started
 * again while players submit flags: PostgreSQL is what counts, so every solve it committed is
 * acknowledged, no request answers 500, and the copies find Redis again by themselves.
 */

const PLAYERS = 6;
const CHALLENGES = 40;

let redisPort: number;
let redis: ChildProcess | null = null;
let world: TestWorld;
let copies: ServerCopy[] = [];
const players: TestUser[] = [];
const challenges: number[] = [];

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function startRedis(): Promise<void> {
  redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(redisPort))) {
    if (Date.now() > deadline) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopRedis(): Promise<void> {
  const child = redis;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  redis = null;
}

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  world = await createTestWorld();
  const { db } = world.services;
  for (let i = 0; i < PLAYERS; i++) {
    const team = await db.team.create({ data: { name: uniqueName("outage"), password: "team-secret-1" }, select: { id: true } });
    players.push(await createUser(world, { teamId: team.id }));
  }
  const category = await db.category.create({ data: { name: uniqueName("outage") }, select: { id: true } });
  for (let i = 0; i < CHALLENGES; i++) {
    const challenge = await db.challenge.create({
      data: { categoryId: category.id, name: uniqueName("outage"), flagType: "plaintext", flagMetadata: { flag: "flag{right}" }, score: 100, currentScore: 100 },
      select: { id: true },
    });
    challenges.push(challenge.id);
  }
  // Throttles on (with room to spare), so their counters live in Redis too.
  const env = { DATABASE_URL: world.database.url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, THROTTLE: "on", THROTTLE_RATES: "flag_submit=100000/min" };
  copies = await Promise.all([startServerCopy(env), startServerCopy(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.stop()));
  await stopRedis();
  await world.close();
});

interface Answer {
  copy: ServerCopy;
  player: TestUser;
  challenge: number;
  status: number;
  m: string;
}

async function submit(copy: ServerCopy, player: TestUser, challenge: number, flag: string): Promise<Answer> {
  const res = await fetch(`${copy.url}/api/v2/challenges/submit_flag/`, {
    method: "POST",
    headers: { authorization: `Token ${player.token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge, flag }),
  });
  const body = (await res.json()) as { m: string };
  return { copy, player, challenge, status: res.status, m: body.m };
}

describe("a Redis outage under load", () => {
  it("answers every submission, acknowledges every committed solve, and recovers without a restart", async () => {
    const [a, b] = copies as [ServerCopy, ServerCopy];
    // Every player submits a wrong and then the right flag for every challenge, through both copies.
    const work = players.flatMap((player, p) =>
      challenges.map((challenge, c) => async () => {
        const copy = copies[(p + c) % 2]!;
        return [await submit(copy, player, challenge, "flag{wrong}"), await submit(copy, player, challenge, "flag{right}")];
      }),
    );
    const answers: Answer[] = [];
    let done = 0;
    const milestones = new Map<number, () => void>();
    const reach = (count: number) => new Promise<void>((resolve) => milestones.set(count, resolve));
    const third = Math.floor(work.length / 3);
    const oneThird = reach(third);
    const twoThirds = reach(2 * third);
    // A socket on copy A hears copy A's own solves all along, the outage included.
    const socketA = await openSocket(`ws://127.0.0.1:${a.port}/api/v2/ws/`);
    await socketA.waitFor((e) => e.event_code === 0);
    const queue = [...work];
    const load = Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          answers.push(...(await job()));
          done += 1;
          milestones.get(done)?.();
        }
      }),
    );

    await oneThird;
    await stopRedis();
    await twoThirds;
    await startRedis();
    await load;

    expect(answers.filter((x) => x.status >= 500)).toEqual([]);
    const unexpected = answers.filter((x) => x.m !== "correct_flag" && x.m !== "incorrect_flag");
    expect(unexpected).toEqual([]);
    const acknowledged = answers.filter((x) => x.m === "correct_flag").map((x) => `${x.player.id}:${x.challenge}`).sort();
    const solves = await world.services.db.solve.findMany({ where: { challengeId: { in: challenges } }, select: { userId: true, challengeId: true } });
    expect(solves.map((s) => `${s.userId}:${s.challengeId}`).sort()).toEqual(acknowledged);
    expect(acknowledged).toHaveLength(PLAYERS * CHALLENGES);
    const solvedOnA = answers.filter((x) => x.m === "correct_flag" && x.copy === a).map((x) => `${x.player.id}:${x.challenge}`);
    // Websocket writes are batched (WS_BATCH_MS): the last solves reach the socket a moment later.
    const unheardOnA = () => {
      const heard = new Set(socketA.events.filter((e) => e.event_code === 1).map((e) => `${String(e.user)}:${String(e.challenge_id)}`));
      return solvedOnA.filter((solve) => !heard.has(solve));
    };
    await expect.poll(unheardOnA, { timeout: 5000 }).toEqual([]);
    socketA.close();

    // Recovery without restart: the same processes carry events between copies again. The
    // subscription comes back on its own within a few reconnect attempts; a fresh announcement is
    // made until copy B's socket hears one from copy A.
    const pids = copies.map((copy) => copy.child.pid);
    const staff = await createUser(world, { isStaff: true });
    const socketB = await openSocket(`ws://127.0.0.1:${b.port}/api/v2/ws/`);
    let heard = false;
    for (let i = 0; i < 100 && !heard; i++) {
      const res = await fetch(`${a.url}/api/v2/announcements/`, {
        method: "POST",
        headers: { authorization: `Token ${staff.token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: `Back ${i}`, body: "Redis is back" }),
      });
      expect(res.status).toBe(201);
      heard = await socketB.waitFor((e) => e.event_code === 5, 200).then(
        () => true,
        () => false,
      );
    }
    expect(heard).toBe(true);
    expect(copies.map((copy) => copy.child.pid)).toEqual(pids);
    expect(copies.every((copy) => copy.child.exitCode === null)).toBe(true);
    socketB.close();
  }, 300_000);
});
