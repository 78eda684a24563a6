import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, contextFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";
import { createCategory, createChallenge, createTeamWith } from "./fixtures.ts";
import { listCategoriesJson } from "./list-categories.ts";

/**
 * The tRPC side of the staff-only fields (the REST side is the contract test of the same name):
 * the deploy target in challenge_metadata and "topic" tags are staff's; a locked stub keeps only
 * its tile's place.
 */
let world: TestWorld;
let staff: TestUser;
let player: TestUser;
let openId: number;
let lockedId: number;

const METADATA = { connection_info: "nc chall.example 31337", attribution: "After a classic", host: "ssh://root@10.0.0.5", protocol: "tcp", x: 3, y: 0, choices: ["a", "b"] };

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  player = (await createTeamWith(world)).members[0]!;
  const category = await createCategory(world);
  const fields = { challengeMetadata: METADATA, author: "sam", tags: { create: [{ type: "topic", text: "heap" }, { type: "tag", text: "easy" }] } };
  openId = (await createChallenge(world, category.id, fields)).id;
  lockedId = (await createChallenge(world, category.id, { ...fields, unlockRequirements: `${openId}` })).id;
});
afterAll(() => world.close());

const byId = (categories: { challenges: { id: number }[] }[]) => new Map<number, any>(categories.flatMap((c) => c.challenges.map((ch) => [ch.id, ch])));

describe("staff-only challenge fields over tRPC", () => {
  it("are left out of a player's categories and challenge", async () => {
    const caller = callerFor(world, player);
    const { host: _host, protocol: _protocol, ...forPlayers } = METADATA;
    for (const open of [byId(await caller.challenges.categories()).get(openId), await caller.challenges.get({ id: openId })]) {
      expect(open.challenge_metadata).toEqual(forPlayers);
      expect(open.tags).toEqual([{ type: "tag", text: "easy" }]);
    }
    for (const stub of [byId(await caller.challenges.categories()).get(lockedId), await caller.challenges.get({ id: lockedId })]) {
      expect(stub.challenge_metadata).toEqual({ x: 3, y: 0 });
      expect(stub).not.toHaveProperty("author");
    }
  });

  it("are left out of the players' pre-serialised listing the same way", async () => {
    const json = JSON.parse(Buffer.concat(await listCategoriesJson(contextFor(world, player))).toString());
    expect(json).toEqual(await callerFor(world, player).challenges.categories());
    expect(JSON.stringify(json)).not.toMatch(/10\.0\.0\.5|"protocol"|heap/);
  });

  it("are all in staff's view", async () => {
    const caller = callerFor(world, staff);
    for (const id of [openId, lockedId]) {
      for (const challenge of [byId(await caller.challenges.categories()).get(id), await caller.challenges.get({ id })]) {
        expect(challenge.challenge_metadata).toEqual(METADATA);
        expect(challenge.tags).toEqual([
          { type: "topic", text: "heap" },
          { type: "tag", text: "easy" },
        ]);
      }
    }
  });
});
