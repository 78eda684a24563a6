import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { challengeValue, flagMetadataError } from "@flagship/shared";
import { describe, expect, it } from "vitest";
import { challengeFile } from "./export.ts";
import { exposedPort, jobNameOf, mapChallenge, NO_FLAG_PATTERN, playerFileNames, uploadNameOf, type DesiredChallenge } from "./mapping.ts";
import type { RemoteChallenge } from "./remote.ts";
import { checkChallengeFile, type ChallengeSpec } from "./spec.ts";
import { changedFields, unlockExpression } from "./sync.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
async function fixture(name: string): Promise<ChallengeSpec> {
  const { spec } = checkChallengeFile(name, await readFile(`${FIXTURES}${name}/challenge.yml`, "utf8"));
  return spec!;
}
function mapped(spec: ChallengeSpec): DesiredChallenge {
  const result = mapChallenge(spec);
  if ("error" in result) throw new Error(result.error);
  return result.challenge;
}
const parse = (text: string) => checkChallengeFile("x.yml", text).spec!;

describe("mapping a challenge file to the server's fields", () => {
  it("maps the full file: several flags of each kind become one pattern that accepts each of them", async () => {
    const challenge = mapped(await fixture("full"));
    expect(challenge.fields).toMatchObject({
      description: "Uses each key of the format.",
      author: "Alice",
      score: 250,
      points_type: "basic",
      flag_type: "regex",
      hidden: false,
      attempt_limit: 3,
      tags: [
        { type: "tag", text: "easy" },
        { type: "tag", text: "text" },
        { type: "topic", text: "parsing" },
      ],
      challenge_metadata: { connection_info: "nc chall.example.test 31337", attribution: "Adapted from an old puzzle" },
    });
    expect(flagMetadataError("regex", challenge.fields.flag_metadata)).toBeNull();
    const pattern = new RegExp(`^(?:${String(challenge.fields.flag_metadata.flag).replace(/\(\?i:([^)]*(?:\)[^|)]*)*)\)/g, "$1")})$`, "i");
    for (const answer of ["flag{plain}", "FLAG{any-case}", "flag{NUM-42}"]) expect(pattern.test(answer)).toBe(true);
    expect(challenge.hints).toEqual([
      { name: "Hint 1", penalty: 0, text: "a free hint", requires: [] },
      { name: "Hint 2", penalty: 20, text: "a paid hint", requires: [] },
    ]);
    expect(challenge.files).toEqual(["files/notes.txt"]);
    expect(challenge.requirements).toEqual([7, "Smallest"]);
    expect(challenge.server).toBeNull();
  });

  it("keeps one case-sensitive static flag as plaintext", () => {
    const challenge = mapped(parse("name: a\ncategory: c\nvalue: 10\nflags: ['flag{x}']\n"));
    expect([challenge.fields.flag_type, challenge.fields.flag_metadata]).toEqual(["plaintext", { flag: "flag{x}" }]);
    expect(challenge.fields.attempt_limit).toBeNull();
  });

  it("gives a challenge without flags a pattern nobody matches", async () => {
    const challenge = mapped(await fixture("minimal"));
    expect(challenge.fields).toMatchObject({ flag_type: "regex", flag_metadata: { flag: NO_FLAG_PATTERN }, hidden: true });
    expect(flagMetadataError("regex", challenge.fields.flag_metadata)).toBeNull();
  });

  it("scores a dynamic challenge with CTFd's function and builds its server from the folder", async () => {
    const challenge = mapped(await fixture("dockerfile"));
    expect(challenge.fields).toMatchObject({ score: 500, points_type: "decay", flag_metadata: { flag: "flag{served}", decay_function: "linear", decay: 10, min_points: 100 } });
    expect(challenge.server).toMatchObject({ build: ".", image: null, name: "served", replicas: 2, dedicated: false, memory: 67108864, port: null });
    // 500, then 10 points less for each solver after the first, as CTFd's linear decay.
    expect([1, 2, 5].map((n) => challengeValue("decay", challenge.fields.score, n, challenge.fields.flag_metadata))).toEqual([500, 490, 460]);
    const log = mapped(parse("name: l\ncategory: c\ntype: dynamic\nextra: {initial: 500, decay: 10, minimum: 100}\nflags: [f]\n"));
    expect(log.fields.flag_metadata).toMatchObject({ decay_function: "logarithmic" });
  });

  it("uses Flagship's own flag types and settings from the extension key", () => {
    const challenge = mapped(
      parse("name: e\ncategory: c\nvalue: 5\nimage: registry.example.test/e:1\nflagship:\n  flag: {type: lenient, metadata: {flag: 'flag{x y}'}}\n  position: {x: 2, y: 3}\n  tiebreaker: false\n  server: {port: 9000, per_team: true}\n"),
    );
    expect(challenge.fields).toMatchObject({ flag_type: "lenient", flag_metadata: { flag: "flag{x y}" }, tiebreaker: false, challenge_metadata: { x: 2, y: 3 } });
    expect(challenge.server).toMatchObject({ build: null, image: "registry.example.test/e:1", port: 9000, dedicated: true, replicas: 1 });
  });

  it("reads a Dockerfile's port and names jobs", () => {
    expect(exposedPort("FROM x\n# EXPOSE 1\nexpose 8080/tcp\nEXPOSE 9\n")).toBe(8080);
    expect(exposedPort("FROM x\n")).toBeNull();
    expect(jobNameOf("Héllo, World! 2")).toBe("hello-world-2");
  });
});

describe("diffing and exporting", () => {
  const remoteOf = (challenge: DesiredChallenge, id: number): RemoteChallenge => ({
    id,
    name: challenge.name,
    ...challenge.fields,
    challenge_metadata: { ...challenge.fields.challenge_metadata, cserv_name: "job" },
    unlock_requirements: "",
    hints: challenge.hints.map((h, i) => ({ id: i + 1, ...h })),
    files: [],
  });

  it("finds nothing to change in what it wrote, keeps a job's cserv_name, and names what changed", async () => {
    const desired = mapped(await fixture("full"));
    const remote = remoteOf(desired, 4);
    expect(changedFields(remote, desired.fields)).toEqual({});
    const edited = { ...desired.fields, description: "new", challenge_metadata: {} };
    expect(changedFields(remote, edited)).toEqual({ description: "new", challenge_metadata: { cserv_name: "job" } });
    expect(unlockExpression([3, 5, 9])).toBe("3 5 AND 9 AND");
  });

  it("exports a challenge as a file that maps back to the same fields", async () => {
    for (const name of ["full", "dockerfile", "minimal"]) {
      const desired = mapped(await fixture(name));
      const remote = remoteOf(desired, 4);
      remote.unlock_requirements = "";
      const file = challengeFile(remote, desired.category, new Map(), undefined, desired.files);
      const again = mapped(checkChallengeFile("x.yml", JSON.stringify(file)).spec!);
      expect(again.fields).toEqual({ ...desired.fields, challenge_metadata: desired.fields.challenge_metadata });
      expect(again.hints).toEqual(desired.hints);
    }
  });
});

describe("the names players see for a challenge's files", () => {
  it("are the files' own names, keeping as many folders as tell two of one name apart", () => {
    expect([...playerFileNames(["dist/a/notes.txt", "dist/b/notes.txt", "dist/readme.txt", "x/deep/a/k.bin", "y/deep/a/k.bin"])]).toEqual([
      ["dist/a/notes.txt", "a/notes.txt"],
      ["dist/b/notes.txt", "b/notes.txt"],
      ["dist/readme.txt", "readme.txt"],
      ["x/deep/a/k.bin", "x/deep/a/k.bin"],
      ["y/deep/a/k.bin", "y/deep/a/k.bin"],
    ]);
    expect(uploadNameOf("a/notes.txt")).toBe("a_notes.txt");
  });
});
