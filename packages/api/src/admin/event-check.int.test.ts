import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { seedChallenge } from "../teams/test-factories.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

describe("pre-event check of the event", () => {
  it("lists nothing to play, a past start, an end before the start, jobs no worker runs and an unreadable accent; a sound event has none", async () => {
    const caller = callerFor(world, staff);
    // An empty event: no "every challenge passed" for want of challenges.
    expect((await caller.admin.eventCheck()).map((e) => e.issue)).toEqual(["no_categories", "no_challenges"]);

    const now = Math.floor(Date.now() / 1000);
    await caller.config.set({ key: "start_time", value: now - 3600 });
    await caller.config.set({ key: "end_time", value: now - 7200 });
    const challenge = await seedChallenge(world);
    await world.services.db.challengeServerJob.create({ data: { name: uniqueName("job"), challengeId: challenge.id, port: 8000, image: "local/x:1" } });
    const theme = { primary: "#ffd43b", secondary: "#495057", success: "#2f9e44", info: "#1971c2", warning: "#e67700", danger: "#c92a2a", dark: "#212529", light: "#ffffff", sidebarType: "dark" as const };
    await caller.config.set({ key: "theme", value: theme });
    const found = await caller.admin.eventCheck();
    expect(found.map((e) => e.issue)).toEqual(["start_past", "end_before_start", "jobs_without_worker", "accent_contrast"]);
    expect(found.find((e) => e.issue === "accent_contrast")?.ratio).toBeLessThan(4.5);

    await caller.config.set({ key: "start_time", value: now + 86_400 });
    await caller.config.set({ key: "end_time", value: now + 2 * 86_400 });
    await caller.config.set({ key: "theme", value: { ...theme, primary: "#0f766e" } });
    await world.services.db.challengeServerJob.deleteMany({});
    expect(await caller.admin.eventCheck()).toEqual([]);
  });

  it("is for staff only", async () => {
    const player = await createUser(world);
    await expect(callerFor(world, player).admin.eventCheck()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
