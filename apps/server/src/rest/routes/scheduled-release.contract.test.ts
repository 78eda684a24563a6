import { createTeamWith } from "@flagship/api/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

/**
 * `scheduled_at` over REST: a challenge scheduled for later is hidden from players (listing,
 * detail, flags, the CTFtime feed) and shown to staff with its schedule; at its time it appears
 * with no staff action. A time that is not ISO-8601 is refused and changes nothing.
 */
const { server, staff } = await useContractServer();

let categoryId: number;
let playerToken: string;

beforeAll(async () => {
  categoryId = (await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Timed" } })).body.d.id;
  playerToken = (await createTeamWith(server.world)).members[0]!.token;
  await server.api("POST", "/config/enable_ctftime/", { token: staff.token, body: { value: true } });
});

const listedIds = async (token: string) => {
  const res = await server.api("GET", "/challenges/categories/", { token });
  expect(res.status).toBe(200);
  return res.body.d.flatMap((c: { challenges: { id: number }[] }) => c.challenges.map((ch) => ch.id));
};

/** The CTFtime feed's task names (the feed is raw JSON, without the envelope). */
const ctftimeTasks = async () => ((await server.api("GET", "/leaderboard/ctftime/")).body as unknown as { tasks: string[] }).tasks;

describe("scheduled_at", () => {
  it("is refused with invalid when it is not an ISO-8601 time with its offset", async () => {
    const res = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, name: "Bad time", score: 10, flag_metadata: { flag: "x" }, scheduled_at: "2026-13-40 25:00" } });
    expect(res.status).toBe(400);
    expect(res.body.m).toBe("invalid");
    expect(res.body.d.scheduled_at[0]).toMatch(/ISO-8601/);
    expect((await server.api("GET", "/challenges/categories/", { token: staff.token })).body.d.flatMap((c: any) => c.challenges.map((ch: any) => ch.name))).not.toContain("Bad time");
  });

  it("hides the challenge from players until its time, then shows it; staff see the schedule throughout", async () => {
    const release = new Date(Date.now() + 3000).toISOString();
    const made = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, name: "Dawn", score: 200, flag_metadata: { flag: "flag{dawn}" }, scheduled_at: release } });
    expect(made.status).toBe(201);
    const id = made.body.d.id as number;
    expect(made.body.d.scheduled_at).toBe(release);

    expect(await listedIds(staff.token)).toContain(id);
    expect((await server.api("GET", `/challenges/${id}/`, { token: staff.token })).body.d.scheduled_at).toBe(release);
    expect(await listedIds(playerToken)).not.toContain(id);
    expect((await server.api("GET", `/challenges/${id}/`, { token: playerToken })).status).toBe(404);
    expect((await server.api("POST", "/challenges/submit_flag/", { token: playerToken, body: { challenge: id, flag: "flag{dawn}" } })).status).toBe(404);
    expect(await ctftimeTasks()).not.toContain("Dawn");

    await new Promise((resolve) => setTimeout(resolve, new Date(release).getTime() - Date.now() + 300));
    expect(await listedIds(playerToken)).toContain(id);
    const detail = await server.api("GET", `/challenges/${id}/`, { token: playerToken });
    expect(detail.status).toBe(200);
    expect(detail.body.d).toMatchObject({ name: "Dawn", unlocked: true });
    expect(detail.body.d).not.toHaveProperty("scheduled_at");
    expect(await ctftimeTasks()).toContain("Dawn");
  }, 30_000);

  it("is staff's to move later with PATCH, which hides the challenge again", async () => {
    const made = await server.api("POST", "/challenges/", { token: staff.token, body: { category: categoryId, name: "Moved", score: 50, flag_metadata: { flag: "flag{moved}" } } });
    const id = made.body.d.id as number;
    expect(await listedIds(playerToken)).toContain(id);
    const later = "2099-01-01T12:00:00.000Z";
    const patched = await server.api("PATCH", `/challenges/${id}/`, { token: staff.token, body: { scheduled_at: later } });
    expect([patched.status, patched.body.d.scheduled_at]).toEqual([200, later]);
    expect(await listedIds(playerToken)).not.toContain(id);
  });
});
