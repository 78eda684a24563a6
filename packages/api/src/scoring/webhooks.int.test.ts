import { QUEUES, redisConnection } from "@flagship/jobs";
import { testRedisUrl } from "@flagship/db/testing";
import { Queue } from "bullmq";
import { describe, expect, inject, it } from "vitest";
import { firstBloodMessage, QueueWebhookSender } from "./webhooks.ts";

describe("first-blood webhook through the worker queue", () => {
  it("enqueues a validated webhooks job when Redis is configured", async () => {
    const url = testRedisUrl(inject("redisUrl"));
    const sender = new QueueWebhookSender(url, { info() {}, warn() {}, error() {} });
    const queue = new Queue(QUEUES.webhooks, { connection: redisConnection(url) });
    try {
      const body = firstBloodMessage({ challengeName: "Queue Jumper", teamName: "Redis Rangers", username: "ada", eventName: "Test CTF" });
      await sender.send("http://127.0.0.1:9/hook", body);
      const jobs = await queue.getJobs(["waiting", "delayed", "active", "prioritized"]);
      const job = jobs.find((j) => JSON.stringify(j.data).includes("Queue Jumper"));
      expect(job?.data).toEqual({ url: "http://127.0.0.1:9/hook", body });
      await job?.remove();
    } finally {
      await queue.close();
      await sender.close();
    }
  });
});
