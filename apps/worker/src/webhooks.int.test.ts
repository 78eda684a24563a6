import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTestWorld, type TestWorld, uniqueName } from "@flagship/api/testing";
import { JobProducer, QUEUES, redisConnection } from "@flagship/jobs";
import type { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startWebhookWorker } from "./webhooks.ts";

/**
 * First-blood webhooks through the real queue: a local HTTP receiver stands in for Discord (a
 * third party we cannot run) and records what it gets.
 */

let world: TestWorld;
let worker: Worker;
let producer: JobProducer;
let receiver: http.Server;
let base: string;
const received: { path: string; body: unknown }[] = [];
const prefix = uniqueName("fs-webhooks");

beforeAll(async () => {
  world = await createTestWorld();
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(body || "null") });
      res.statusCode = req.url === "/broken" ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const connection = redisConnection(inject("redisUrl"));
  worker = startWebhookWorker({ db: world.services.db, connection, prefix, concurrency: 2, log: { warn() {} } });
  producer = new JobProducer(connection, { prefix });
});

afterAll(async () => {
  await worker.close();
  await producer.close();
  await new Promise((resolve) => receiver.close(resolve));
  await world.close();
});

async function until(probe: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("webhook delivery", () => {
  it("posts the message to the receiver", async () => {
    await producer.enqueue(QUEUES.webhooks, { url: `${base}/ok`, body: { content: "First blood on Echo!" } });
    await until(() => received.some((r) => r.path === "/ok"));
    expect(received.find((r) => r.path === "/ok")?.body).toEqual({ content: "First blood on Echo!" });
  });

  it("retries a failing receiver with back-off and keeps the message in the staff outbox when it gives up", async () => {
    await producer.enqueue(QUEUES.webhooks, { url: `${base}/broken`, body: { content: "First blood on Pwn!" } }, { attempts: 3, backoffMs: 50 });
    await until(async () => (await world.services.db.outboxMail.count({ where: { subject: "Webhook not delivered" } })) === 1);
    expect(received.filter((r) => r.path === "/broken")).toHaveLength(3);
    const mail = await world.services.db.outboxMail.findFirstOrThrow({ where: { subject: "Webhook not delivered" } });
    expect(mail.text).toContain("First blood on Pwn!");
    expect(mail.text).toContain("Webhook answered 500");
  });
});
