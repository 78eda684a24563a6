import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@flagship/db";
import WebSocket from "ws";
import type { Server } from "../harness.ts";

export const SOCKETS = 5000;

export interface FanoutResult {
  name: string;
  sockets: number;
  /** From sending the correct flag until the last socket has event 1. */
  milliseconds: number;
  goal: string;
  met: boolean;
}

/** A player in a team and a plaintext challenge for them to solve. */
export async function seedSolver(db: Db): Promise<{ token: string; challengeId: number; flag: string }> {
  const team = await db.team.create({ data: { name: `fanout-${randomBytes(4).toString("hex")}`, password: "secretsecret" } });
  const user = await db.user.create({
    data: { username: `fanout-${randomBytes(4).toString("hex")}`, email: `${randomBytes(6).toString("hex")}@example.test`, passwordHash: "x", emailVerified: true, teamId: team.id },
  });
  const token = randomBytes(32).toString("hex");
  await db.authToken.create({ data: { keyHash: createHash("sha256").update(token).digest("hex"), userId: user.id } });
  const category = await db.category.create({ data: { name: "Fan-out" } });
  const flag = "flag{fan_out}";
  const challenge = await db.challenge.create({
    data: { categoryId: category.id, name: "Fan-out", score: 100, currentScore: 100, flagType: "plaintext", flagMetadata: { flag } },
  });
  return { token, challengeId: challenge.id, flag };
}

function connect(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once("message", () => resolve(socket)); // event 0
    socket.once("error", reject);
  });
}

/** 5000 sockets connected; one solve; the time until the last socket has event 1. */
export async function benchFanout(server: Server, db: Db): Promise<FanoutResult> {
  const solver = await seedSolver(db);
  // The sockets are dealt out to the server's copies in turn; the solve reaches the others through Redis.
  const urls = server.urls.map((base) => `${base.replace("http", "ws")}/api/v2/ws/`);
  const sockets: WebSocket[] = [];
  // Connect in batches so the listen backlog is not overrun.
  for (let i = 0; i < SOCKETS; i += 250) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(250, SOCKETS - i) }, (_, j) => connect(urls[(i + j) % urls.length]!)))));
  }
  let remaining = sockets.length;
  let lastAt = 0;
  const allReceived = new Promise<void>((resolve) => {
    for (const socket of sockets) {
      socket.on("message", (raw) => {
        if ((JSON.parse(raw.toString()) as { event_code: number }).event_code !== 1) return;
        lastAt = performance.now();
        remaining -= 1;
        if (remaining === 0) resolve();
      });
    }
  });
  const start = performance.now();
  const res = await fetch(`${server.baseUrl}/api/v2/challenges/submit_flag/`, {
    method: "POST",
    headers: { authorization: `Token ${solver.token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge: solver.challengeId, flag: solver.flag }),
  });
  const body = (await res.json()) as { m: string };
  if (body.m !== "correct_flag") throw new Error(`The fan-out solve was not accepted: ${JSON.stringify(body)}`);
  await Promise.race([allReceived, new Promise((_, reject) => setTimeout(() => reject(new Error(`${remaining} sockets never got event 1`)), 30_000))]);
  const milliseconds = Math.round(lastAt - start);
  for (const socket of sockets) socket.terminate();
  return { name: `Websocket fan-out of one solve to ${SOCKETS} sockets`, sockets: SOCKETS, milliseconds, goal: "< 1000 ms", met: milliseconds < 1000 };
}
