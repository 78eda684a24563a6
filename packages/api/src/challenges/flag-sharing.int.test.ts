import { deriveTeamFlag } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "../context.ts";
import { createCaller } from "../root.ts";
import { callerFor, createCategory, createTeamWith, createTestWorld, createUser, type TestTeam, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";
import { flagOwnerStats } from "./flag-owners.ts";

let world: TestWorld;
let staff: TestUser;
let alpha: TestTeam;
let bravo: TestTeam;
let categoryId: number;

/** A caller for a player submitting from an address of its own. */
const from = (user: TestUser, ip: string) => createCaller(createInnerContext(world.services, user.actor, ip));

async function errorOf(promise: Promise<unknown>): Promise<{ appCode?: string; message?: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { message?: string; cause?: { code?: string } };
    return { appCode: e.cause?.code, message: e.message };
  }
  throw new Error("expected a failure");
}

async function dynamicChallenge(name: string): Promise<{ id: number; secret: string }> {
  const created = await callerFor(world, staff).challenges.create({ category: categoryId, name, description: "", challenge_type: "default", flag_type: "dynamic", flag_metadata: {}, score: 100 });
  const secret = (created.flag_metadata as { secret?: unknown } | undefined)?.secret;
  expect(typeof secret).toBe("string");
  return { id: created.id, secret: secret as string };
}

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  [alpha, bravo] = [await createTeamWith(world), await createTeamWith(world)];
  categoryId = (await createCategory(world)).id;
});
afterAll(() => world.close());

describe("dynamic (per-team) flags", () => {
  it("generates a secret kept from players and accepts each team's own flag only", async () => {
    const challenge = await dynamicChallenge("Per team");
    expect(challenge.secret).toMatch(/^[0-9a-f]{64}$/);
    const player = callerFor(world, alpha.members[0]!);
    const seen = await player.challenges.get({ id: challenge.id });
    expect(JSON.stringify(seen)).not.toContain(challenge.secret);
    expect(seen).not.toHaveProperty("flag_metadata");

    const own = deriveTeamFlag(challenge.secret, alpha.id, "flag");
    expect(await callerFor(world, staff).challenges.teamFlag({ challenge: challenge.id, team: alpha.id })).toEqual({ flag: own });
    expect((await errorOf(player.challenges.teamFlag({ challenge: challenge.id, team: alpha.id }))).appCode).toBe("permission_denied");
    expect(await player.challenges.submitFlag({ challenge: challenge.id, flag: own })).toMatchObject({ m: "correct_flag" });
  });

  it("keeps the secret when staff edit other fields, and refuses a secret that is too short", async () => {
    const challenge = await dynamicChallenge("Kept secret");
    const edited = await callerFor(world, staff).challenges.update({ id: challenge.id, patch: { name: "Renamed" } });
    expect((edited.flag_metadata as { secret: string }).secret).toBe(challenge.secret);
    const error = await errorOf(callerFor(world, staff).challenges.update({ id: challenge.id, patch: { flag_metadata: { secret: "short" } } }));
    expect(error.appCode).toBe("invalid");
  });
});

describe("flag-sharing detection", () => {
  it("refuses another team's flag like a wrong one and records the incident with both teams, the challenge and the addresses", async () => {
    const challenge = await dynamicChallenge("Shared");
    const alphaFlag = deriveTeamFlag(challenge.secret, alpha.id, "flag");
    // Alpha solves from its own address; Bravo then sends Alpha's flag from another.
    expect(await from(alpha.members[0]!, "198.51.100.7").challenges.submitFlag({ challenge: challenge.id, flag: alphaFlag })).toMatchObject({ m: "correct_flag" });
    const eventsBefore = world.events.length;
    expect(await from(bravo.members[0]!, "203.0.113.9").challenges.submitFlag({ challenge: challenge.id, flag: alphaFlag })).toEqual({ m: "incorrect_flag", d: { correct: false } });

    const { count, results } = await callerFor(world, staff).admin.sharing({});
    expect(count).toBeGreaterThan(0);
    expect(results[0]).toMatchObject({
      kind: "team_flag",
      challenge: { id: challenge.id, name: "Shared" },
      team: { id: bravo.id, name: bravo.name, is_visible: true },
      other_team: { id: alpha.id, name: alpha.name },
      user: bravo.members[0]!.id,
      flag: alphaFlag,
      ip: "203.0.113.9",
      other_ips: ["198.51.100.7"],
    });
    expect(Date.parse(results[0]!.time)).not.toBeNaN();
    // Staff hear of it at once, on the staff channel only.
    const live = world.events.slice(eventsBefore).filter((e) => e.kind === "socket" && "staff" in e.audience && e.payload.event_code === 8);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ payload: { event_code: 8, challenge_id: challenge.id, team: bravo.id, other_team: alpha.id, kind: "team_flag" } });
    // Bravo has not solved it.
    expect(await world.services.db.solve.count({ where: { teamId: bravo.id, challengeId: challenge.id } })).toBe(0);
  });

  it("records nothing for an ordinary wrong flag, even one shaped like a team flag", async () => {
    const challenge = await dynamicChallenge("Guessing");
    const before = await world.services.db.sharingIncident.count();
    await callerFor(world, bravo.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: `flag{${"0".repeat(32)}}` });
    await callerFor(world, bravo.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "nope" });
    expect(await world.services.db.sharingIncident.count()).toBe(before);
  });

  it("finds the owner among many teams, a team created after the lookup table included, deriving each team's flag once", async () => {
    const challenge = await dynamicChallenge("Crowded");
    const { db } = world.services;
    await db.team.createMany({ data: Array.from({ length: 300 }, () => ({ name: uniqueName("crowd"), password: "team-secret-1" })) });
    const crowd = await db.team.findMany({ where: { name: { startsWith: "crowd" } }, select: { id: true }, orderBy: { id: "asc" } });
    const submit = (flag: string) => callerFor(world, bravo.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag });
    const incidents = () => db.sharingIncident.findMany({ where: { challengeId: challenge.id }, select: { otherTeamId: true, teamId: true }, orderBy: { id: "asc" } });

    // A guess of the team flag's shape builds the challenge's table once, with every team.
    expect(await submit(`flag{${"0".repeat(32)}}`)).toMatchObject({ m: "incorrect_flag" });
    const teams = await db.team.count();
    expect(flagOwnerStats(db, challenge.id).entries).toBe(teams);

    const middle = crowd[150]!.id;
    expect(await submit(deriveTeamFlag(challenge.secret, middle, "flag"))).toEqual({ m: "incorrect_flag", d: { correct: false } });
    expect(flagOwnerStats(db, challenge.id).entries).toBe(teams);

    // A team created since: its flag is found too, and only its flag is added.
    const late = await createTeamWith(world, 1);
    expect(await submit(deriveTeamFlag(challenge.secret, late.id, "flag"))).toMatchObject({ m: "incorrect_flag" });
    expect(flagOwnerStats(db, challenge.id).entries).toBe(teams + 1);

    // A deleted team's flag is nobody's any more.
    const gone = crowd[7]!.id;
    await db.team.delete({ where: { id: gone } });
    await submit(deriveTeamFlag(challenge.secret, gone, "flag"));

    expect(await incidents()).toEqual([
      { teamId: bravo.id, otherTeamId: middle },
      { teamId: bravo.id, otherTeamId: late.id },
    ]);
  });

  it("records the same wrong flag from two teams only when the heuristic is switched on", async () => {
    const challenge = await callerFor(world, staff).challenges.create({ category: categoryId, name: "Same wrong", description: "", challenge_type: "default", flag_type: "plaintext", flag_metadata: { flag: "flag{right}" }, score: 10 });
    const count = () => world.services.db.sharingIncident.count({ where: { challengeId: challenge.id } });
    await callerFor(world, alpha.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{wrong-1}" });
    await callerFor(world, bravo.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{wrong-1}" });
    expect(await count()).toBe(0);

    await callerFor(world, staff).config.set({ key: "sharing_wrong_flag_window", value: 300 });
    try {
      await callerFor(world, alpha.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{wrong-2}" });
      await callerFor(world, bravo.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{wrong-3}" });
      expect(await count()).toBe(0);
      await callerFor(world, bravo.members[0]!).challenges.submitFlag({ challenge: challenge.id, flag: "flag{wrong-2}" });
      const incident = await world.services.db.sharingIncident.findFirstOrThrow({ where: { challengeId: challenge.id } });
      expect(incident).toMatchObject({ kind: "same_wrong_flag", teamId: bravo.id, otherTeamId: alpha.id, flag: "flag{wrong-2}" });
    } finally {
      await callerFor(world, staff).config.set({ key: "sharing_wrong_flag_window", value: 0 });
    }
  });

  it("lets staff disqualify either team of an incident (hidden from the boards), audited; players may not", async () => {
    const [incident] = (await callerFor(world, staff).admin.sharing({})).results;
    const player = callerFor(world, alpha.members[0]!);
    expect((await errorOf(player.admin.sharing({}))).appCode).toBe("permission_denied");
    expect((await errorOf(player.admin.disqualify({ incident: incident!.id, team: incident!.team.id }))).appCode).toBe("permission_denied");
    const outsider = await createTeamWith(world);
    expect((await errorOf(callerFor(world, staff).admin.disqualify({ incident: incident!.id, team: outsider.id }))).appCode).toBe("invalid");

    expect(await callerFor(world, staff).admin.disqualify({ incident: incident!.id, team: incident!.team.id })).toEqual({ team: incident!.team.id, is_visible: false });
    expect((await world.services.db.team.findUniqueOrThrow({ where: { id: incident!.team.id } })).isVisible).toBe(false);
    expect(await world.services.db.auditLog.count({ where: { action: "disqualify_team", userId: staff.id } })).toBe(1);
    expect((await callerFor(world, staff).admin.sharing({})).results[0]!.team.is_visible).toBe(false);
  });
});
