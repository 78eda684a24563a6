import { createTeamWith } from "@flagship/api/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

/**
 * ctfcli's admin-only fields as a challenge sync stores them: the deploy target (host, protocol)
 * in challenge_metadata and topics as tags of type "topic". Players never read them; a locked
 * stub carries only its tile's place; staff read everything.
 */
const { server, staff } = await useContractServer();

const METADATA = { connection_info: "nc chall.example 31337", attribution: "After a classic", host: "ssh://root@10.0.0.5", protocol: "tcp", x: 1, y: 2, cserv_name: "job-1" };
const TAGS = [
  { type: "tag", text: "easy" },
  { type: "topic", text: "format strings" },
];
let openId: number;
let lockedId: number;
let playerToken: string;

beforeAll(async () => {
  const category = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Pwn" } });
  const body = { category: category.body.d.id, score: 100, author: "sam", flag_metadata: { flag: "flag{x}" }, challenge_metadata: METADATA, tags: TAGS };
  openId = (await server.api("POST", "/challenges/", { token: staff.token, body: { ...body, name: "Open" } })).body.d.id;
  lockedId = (await server.api("POST", "/challenges/", { token: staff.token, body: { ...body, name: "Locked", unlock_requirements: `${openId}` } })).body.d.id;
  playerToken = (await createTeamWith(server.world)).members[0]!.token;
});

const listed = async (token: string) => {
  const res = await server.api("GET", "/challenges/categories/", { token });
  expect(res.status).toBe(200);
  return new Map<number, any>(res.body.d.flatMap((c: { challenges: { id: number }[] }) => c.challenges.map((ch) => [ch.id, ch])));
};
const detail = async (token: string, id: number) => {
  const res = await server.api("GET", `/challenges/${id}/`, { token });
  expect(res.status).toBe(200);
  return res.body.d;
};

describe("staff-only challenge fields", () => {
  it("are not in a player's challenge, listed or by id; the connection details are", async () => {
    const { host: _host, protocol: _protocol, ...forPlayers } = METADATA;
    for (const open of [(await listed(playerToken)).get(openId), await detail(playerToken, openId)]) {
      expect(open.challenge_metadata).toEqual(forPlayers);
      expect(open.tags).toEqual([{ type: "tag", text: "easy" }]);
      expect(open.author).toBe("sam");
    }
  });

  it("leave a locked stub with its tile's place only: no connection details, attribution or author", async () => {
    for (const stub of [(await listed(playerToken)).get(lockedId), await detail(playerToken, lockedId)]) {
      expect(stub).toEqual({ id: lockedId, category: expect.any(Number), unlock_requirements: `${openId}`, challenge_type: "default", challenge_metadata: { x: 1, y: 2 }, solve_count: 0, votes: { positive: 0, negative: 0, self: null }, unlocked: false });
    }
  });

  it("stay out once the challenge unlocks for the team", async () => {
    const solved = await server.api("POST", "/challenges/submit_flag/", { token: playerToken, body: { challenge: openId, flag: "flag{x}" } });
    expect(solved.body.d.correct).toBe(true);
    const unlocked = await detail(playerToken, lockedId);
    expect(unlocked.unlocked).toBe(true);
    expect(Object.keys(unlocked.challenge_metadata).sort()).toEqual(["attribution", "connection_info", "cserv_name", "x", "y"]);
    expect(unlocked.tags).toEqual([{ type: "tag", text: "easy" }]);
  });

  it("are all in staff's view, listed and by id, locked or not", async () => {
    const listing = await listed(staff.token);
    for (const id of [openId, lockedId]) {
      for (const challenge of [listing.get(id), await detail(staff.token, id)]) {
        expect(challenge.challenge_metadata).toEqual(METADATA);
        expect(challenge.tags).toEqual(TAGS);
        expect(challenge.author).toBe("sam");
      }
    }
  });
});
