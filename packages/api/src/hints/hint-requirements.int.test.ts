import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCategory, createChallenge, createTeamWith, type TestTeam } from "../challenges/fixtures.ts";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";

/**
 * Hints that require other hints (ctfcli's hint requirements): a team opens one only after the
 * hints it requires; before that it is refused with hint_not_unlocked and nothing is charged.
 */
let world: TestWorld;
let staff: TestUser;
let team: TestTeam;
let challengeId: number;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  team = await createTeamWith(world);
  challengeId = (await createChallenge(world, (await createCategory(world)).id, { name: "Layers" })).id;
});
afterAll(() => world.close());

describe("hint requirements", () => {
  it("open a hint only after the hints it requires; before, hint_not_unlocked and nothing charged", async () => {
    const caller = callerFor(world, staff);
    const first = await caller.hints.create({ challenge: challengeId, name: "Outer layer", penalty: 10, text: "Base64 first." });
    const second = await caller.hints.create({ challenge: challengeId, name: "Inner layer", penalty: 20, text: "Then XOR with 0x42.", requirements: [first.id] });
    expect(second.requirements).toEqual([first.id]);

    const player = callerFor(world, team.members[0]!);
    const view = await player.challenges.get({ id: challengeId });
    expect("hints" in view && view.hints.find((h) => h.id === second.id)).toMatchObject({ requirements: [first.id], text: "", used: false });

    await expect(player.hints.use({ id: second.id })).rejects.toMatchObject({ message: 'Use "Outer layer" first.' });
    expect(await world.services.db.hintUse.count({ where: { teamId: team.id } })).toBe(0);

    expect(await player.hints.use({ id: first.id })).toMatchObject({ text: "Base64 first." });
    expect(await player.hints.use({ id: second.id })).toMatchObject({ text: "Then XOR with 0x42." });
    expect(await world.services.db.hintUse.count({ where: { teamId: team.id } })).toBe(2);
  });

  it("are hints of the same challenge, never the hint itself or a circle; deleting a required hint frees the others", async () => {
    const caller = callerFor(world, staff);
    const other = await createChallenge(world, (await createCategory(world)).id);
    const elsewhere = await caller.hints.create({ challenge: other.id, name: "Elsewhere", penalty: 0, text: "" });
    const a = await caller.hints.create({ challenge: challengeId, name: "A", penalty: 0, text: "a" });
    const b = await caller.hints.create({ challenge: challengeId, name: "B", penalty: 0, text: "b", requirements: [a.id] });
    await expect(caller.hints.create({ challenge: challengeId, name: "C", penalty: 0, text: "", requirements: [elsewhere.id] })).rejects.toMatchObject({ message: expect.stringMatching(/not a hint of this challenge/) });
    await expect(caller.hints.update({ id: a.id, patch: { requirements: [a.id] } })).rejects.toMatchObject({ message: expect.stringMatching(/cannot require itself/) });
    await expect(caller.hints.update({ id: a.id, patch: { requirements: [b.id] } })).rejects.toMatchObject({ message: expect.stringMatching(/circle/) });
    expect((await world.services.db.hint.findUnique({ where: { id: a.id } }))?.requirements).toEqual([]);

    await caller.hints.delete({ id: a.id });
    expect((await world.services.db.hint.findUnique({ where: { id: b.id } }))?.requirements).toEqual([]);
    const audit = await world.services.db.auditLog.findMany({ where: { action: { in: ["create_hint", "update_hint", "delete_hint"] } } });
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });
});
