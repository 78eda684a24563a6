import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { seedTeam } from "./test-factories.ts";

let world: TestWorld;
let staff: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
});
afterAll(() => world.close());

function codeOf(result: PromiseSettledResult<unknown>): string {
  if (result.status === "fulfilled") return "ok";
  return (result.reason as { cause?: { code?: string } }).cause?.code ?? String(result.reason);
}

describe("under concurrency", () => {
  it("never lets simultaneous joins exceed team_size", async () => {
    await callerFor(world, staff).config.set({ key: "team_size", value: 4 });
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id, password: "race-secret" });
    const joiners = await Promise.all(Array.from({ length: 16 }, () => createUser(world)));
    const results = await Promise.allSettled(joiners.map((u) => callerFor(world, u).teams.join({ name: team.name, password: "race-secret" })));
    const codes = results.map(codeOf);
    expect(codes.filter((c) => c === "ok")).toHaveLength(3);
    expect(codes.filter((c) => c === "team_full")).toHaveLength(13);
    expect(await world.services.db.user.count({ where: { teamId: team.id } })).toBe(4);
    // Exactly the successful joins were announced.
    expect(world.events.filter((e) => e.kind === "socket" && e.payload.event_code === 4 && e.payload.team === team.id)).toHaveLength(3);
    await callerFor(world, staff).config.set({ key: "team_size", value: 0 });
  });

  it("gives a contested name to exactly one team; the others get unique", async () => {
    const name = uniqueName("Contested");
    const founders = await Promise.all(Array.from({ length: 6 }, () => createUser(world)));
    const results = await Promise.allSettled(
      founders.map((u, i) => callerFor(world, u).teams.create({ name: i % 2 ? name.toUpperCase() : name, password: "12345678" })),
    );
    const codes = results.map(codeOf);
    expect(codes.filter((c) => c === "ok")).toHaveLength(1);
    expect(codes.filter((c) => c === "unique")).toHaveLength(5);
    expect(await world.services.db.team.count({ where: { name } })).toBe(1);
    expect(await world.services.db.user.count({ where: { id: { in: founders.map((f) => f.id) }, teamId: { not: null } } })).toBe(1);
  });

  it("puts one player in one team when they create and join at once", async () => {
    const host = await seedTeam(world, { password: "host-secret" });
    const player = await createUser(world);
    const caller = callerFor(world, player);
    const results = await Promise.allSettled([
      caller.teams.create({ name: uniqueName("Mine"), password: "12345678" }),
      caller.teams.join({ name: host.name, password: "host-secret" }),
      caller.teams.create({ name: uniqueName("Other"), password: "12345678" }),
    ]);
    expect(results.map(codeOf).filter((c) => c === "ok")).toHaveLength(1);
    expect(results.map(codeOf).filter((c) => c !== "ok").every((c) => c === "already_in_team")).toBe(true);
    // No orphan team was left behind by the losers.
    expect(await world.services.db.team.count({ where: { ownerId: player.id } })).toBeLessThanOrEqual(1);
  });

  it("never leaves a team ownerless when its owner leaves while others join", async () => {
    await callerFor(world, staff).config.set({ key: "enable_team_leave", value: true });
    const owner = await createUser(world);
    const team = await seedTeam(world, { ownerId: owner.id, password: "busy-secret" });
    const ownerCaller = callerFor(world, { actor: { ...owner.actor, teamId: team.id } });
    const joiners = await Promise.all(Array.from({ length: 4 }, () => createUser(world)));
    const results = await Promise.allSettled([
      ownerCaller.teams.leave(),
      ...joiners.map((u) => callerFor(world, u).teams.join({ name: team.name, password: "busy-secret" })),
    ]);
    const left = results[0]!.status === "fulfilled";
    const joined = results.slice(1).filter((r) => r.status === "fulfilled").length;
    if (left) {
      // The owner got in first and took the team with them; every join then found no team.
      expect(joined).toBe(0);
      expect(await world.services.db.team.count({ where: { id: team.id } })).toBe(0);
    } else {
      expect(codeOf(results[0]!)).toBe("cannot_leave_team_ownerless");
      expect((await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { ownerId: true } })).ownerId).toBe(owner.id);
    }
    await callerFor(world, staff).config.set({ key: "enable_team_leave", value: false });
  });
});
