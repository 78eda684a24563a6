import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkChallengeFile, loadRepository } from "./spec.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const check = async (name: string) => checkChallengeFile(`${name}/challenge.yml`, await readFile(path.join(FIXTURES, name, "challenge.yml"), "utf8"));

describe("challenge file schema", () => {
  it("reads ctfcli's example layout (flow maps, free-text flag data, hints of both kinds)", async () => {
    const { spec, problems } = await check("example");
    expect(problems).toEqual([]);
    expect(spec).toMatchObject({ name: "Sample", value: 100, attempts: 5, state: "hidden", image: null, requirements: ["Warmup", 1] });
    expect(spec?.flags).toEqual(["flag{s4mpl3}", { type: "static", content: "flag{other}", data: "free text" }]);
    expect(spec?.hints).toEqual([{ content: "This one costs points", cost: 10 }, "This one is free"]);
  });

  it("reads a minimal file, warning that it has no flag", async () => {
    const { spec, problems } = await check("minimal");
    expect(spec).toMatchObject({ name: "Smallest", category: "Warmup", value: 50, type: "standard", state: "hidden" });
    expect(problems).toEqual([{ file: "minimal/challenge.yml", line: 1, severity: "warning", message: "No flags: nobody can solve this challenge until it has one." }]);
  });

  it("reads every field of the full file; the extra map is kept", async () => {
    const { spec, problems } = await check("full");
    expect(problems).toEqual([]);
    expect(spec).toMatchObject({ attribution: "Adapted from an old puzzle", connection_info: "nc chall.example.test 31337", topics: ["parsing"], tags: ["easy", "text"], extra: { note: "kept for other tools" } });
  });

  it("reads a dynamic challenge with a Dockerfile and the flagship extension key", async () => {
    const { spec, problems } = await check("dockerfile");
    expect(problems).toEqual([]);
    expect(spec).toMatchObject({ type: "dynamic", extra: { initial: 500, decay: 10, minimum: 100, function: "linear" }, image: ".", flagship: { server: { replicas: 2, memory: 67108864 } } });
  });

  it("reports each problem with its line; unknown keys are warnings", async () => {
    const { spec, problems } = await check("invalid");
    expect(spec).toBeNull();
    expect(problems).toEqual(
      expect.arrayContaining([
        { file: "invalid/challenge.yml", line: 3, severity: "error", message: expect.stringMatching(/^value: /) },
        { file: "invalid/challenge.yml", line: 9, severity: "error", message: expect.stringMatching(/^hints\.0\.cost: /) },
        { file: "invalid/challenge.yml", line: 10, severity: "warning", message: 'Unknown key "colour" is ignored.' },
      ]),
    );
  });

  it("refuses what is not a map, YAML errors and dynamic challenges without their settings", () => {
    expect(checkChallengeFile("a.yml", "- this is\n- a list\n").problems[0]).toMatchObject({ line: 1, severity: "error", message: expect.stringMatching(/map of keys/) });
    const dynamic = checkChallengeFile("c.yml", "name: d\ncategory: c\ntype: dynamic\nextra:\n  initial: 100\nflags: [f]\n");
    expect(dynamic.problems.map((p) => [p.line, p.message])).toEqual([
      [5, "extra.decay: A dynamic challenge needs extra.decay."],
      [5, "extra.minimum: A dynamic challenge needs extra.minimum."],
    ]);
    expect(checkChallengeFile("d.yml", "name: s\ncategory: c\nflags: [f]\n").problems).toEqual([{ file: "d.yml", line: 1, severity: "error", message: "value: A standard challenge needs a value." }]);
  });

  it("reports a YAML error at its line", () => {
    const broken = checkChallengeFile("y.yml", "name: Braces\ncategory: c\nvalue: 10\nflags: [flag{x}]\n");
    expect(broken.spec).toBeNull();
    expect(broken.problems).toEqual([{ file: "y.yml", line: 4, severity: "error", message: expect.stringMatching(/flow sequence/) }]);
  });

  it("reads quoted numbers as numbers, as CTFd did", () => {
    const quoted = checkChallengeFile("q.yml", 'name: Q\ncategory: c\nvalue: "500"\nattempts: "3"\nhints:\n  - content: Costs.\n    cost: "25"\nflags: [f]\n');
    expect(quoted.problems).toEqual([]);
    expect(quoted.spec).toMatchObject({ value: 500, attempts: 3, hints: [{ content: "Costs.", cost: 25 }] });
    expect(checkChallengeFile("r.yml", 'name: R\ncategory: c\nvalue: "lots"\nflags: [f]\n').problems[0]).toMatchObject({ line: 3, severity: "error" });
  });

  it("reads a key given twice as ctfcli does, the later one, with a warning at its line", () => {
    const twice = checkChallengeFile("t.yml", "name: First\ncategory: c\nvalue: 100\nname: Second\nflags: [f]\nextra:\n  a: 1\n  a: 2\n");
    expect(twice.spec).toMatchObject({ name: "Second", extra: { a: 2 } });
    expect(twice.problems).toEqual([
      { file: "t.yml", line: 4, severity: "warning", message: '"name" is given twice (first on line 1); the later one is used, as ctfcli reads it.' },
      { file: "t.yml", line: 8, severity: "warning", message: '"a" is given twice (first on line 7); the later one is used, as ctfcli reads it.' },
    ]);
  });

  it("reads older ctfcli's top-level decay and minimum as those versions did, warning with the new form", () => {
    const older = checkChallengeFile("e.yml", "name: Old\ncategory: c\ntype: dynamic\nvalue: 500\ndecay: 25\nminimum: 100\nflags: [f]\n");
    expect(older.spec).toMatchObject({ type: "dynamic", value: 500, extra: { initial: 500, decay: 25, minimum: 100 } });
    expect(older.problems).toEqual([
      { file: "e.yml", line: 5, severity: "warning", message: "decay and minimum at the top level is ctfcli's older form, read as it was; write extra: {initial: 500, decay: 25, minimum: 100} instead." },
    ]);
    // What extra says wins; a problem with a moved value points at the line the file has it on.
    expect(checkChallengeFile("f.yml", "name: Old\ncategory: c\ntype: dynamic\nvalue: 500\nminimum: 50\nextra:\n  decay: 10\n  minimum: 80\nflags: [f]\n").spec?.extra).toMatchObject({ initial: 500, decay: 10, minimum: 80 });
    const wrong = checkChallengeFile("g.yml", "name: Old\ncategory: c\ntype: dynamic\nvalue: 100\ndecay: 5\nminimum: 300\nflags: [f]\n");
    expect(wrong.problems.filter((p) => p.severity === "error")).toEqual([{ file: "g.yml", line: 6, severity: "error", message: "extra.minimum: The minimum is more than the initial value." }]);
    // Outside a dynamic challenge they mean nothing, as before.
    expect(checkChallengeFile("h.yml", "name: S\ncategory: c\nvalue: 100\ndecay: 5\nflags: [f]\n").problems).toEqual([{ file: "h.yml", line: 4, severity: "warning", message: 'Unknown key "decay" is ignored.' }]);
  });
});

describe("a repository", () => {
  it("checks files, requirements and Dockerfiles across challenges", async () => {
    const loaded = await loadRepository(FIXTURES);
    const byName = new Map(loaded.map((c) => [path.basename(path.dirname(c.file)), c]));
    // "Warmup" is no challenge of the fixtures, "Smallest" is; ids are taken as they are.
    expect(byName.get("example")!.problems.map((p) => p.message)).toEqual(['requirements: no challenge named "Warmup" in the repository.']);
    expect(byName.get("full")!.problems).toEqual([]);
    expect(byName.get("dockerfile")!.spec).not.toBeNull();
    expect(byName.get("invalid")!.spec).toBeNull();
  });
});
