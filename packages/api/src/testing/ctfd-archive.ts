import { buffer } from "node:stream/consumers";
import yazl from "yazl";

/**
 * CTFd export archives for tests, in the layout CTFd's export writes: `db/{table}.json` as
 * `{"count": n, "results": [...], "meta": {}}` (compact JSON, naive UTC times) beside
 * `db/alembic_version.json`, and the uploaded files as `uploads/{folder}/{name}`, where a file
 * row's `location` is `{folder}/{name}`. Plus the tools an attacker would use on one: renaming a
 * member to a path the zip library refuses to write, and lying about a member's size.
 */

export type CtfdTableRows = Record<string, Record<string, unknown>[]>;

export interface CtfdArchiveSpec {
  tables: CtfdTableRows;
  /** Uploaded files by location (`{folder}/{name}`). */
  uploads?: Record<string, string | Buffer>;
  /** Further members, written as they are (a link when `mode` says so). */
  extra?: { name: string; body: string | Buffer; mode?: number }[];
}

/** A CTFd alembic revision of the 3.x line. */
export const CTFD_REVISION = "67ebab6de598";

export function ctfdTable(rows: Record<string, unknown>[]): string {
  return JSON.stringify({ count: rows.length, results: rows, meta: {} });
}

/** A CTFd export as a zip, deflated as CTFd's own is. */
export async function buildCtfdArchive(spec: CtfdArchiveSpec): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const done = buffer(zip.outputStream);
  zip.addBuffer(Buffer.from(ctfdTable([{ version_num: CTFD_REVISION }])), "db/alembic_version.json");
  for (const [table, rows] of Object.entries(spec.tables)) zip.addBuffer(Buffer.from(ctfdTable(rows)), `db/${table}.json`);
  for (const [location, body] of Object.entries(spec.uploads ?? {})) zip.addBuffer(typeof body === "string" ? Buffer.from(body) : body, `uploads/${location}`);
  for (const item of spec.extra ?? []) zip.addBuffer(typeof item.body === "string" ? Buffer.from(item.body) : item.body, item.name, item.mode === undefined ? {} : { mode: item.mode });
  zip.end();
  return done;
}

/**
 * Renames a member in place (local header and central directory), to a name of the same length in
 * bytes that zip writers refuse to produce, such as `../../x` or `a\b`.
 */
export function renameMember(zip: Buffer, from: string, to: string): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error("renameMember: names must have the same length in bytes");
  const out = Buffer.from(zip);
  let at = out.indexOf(a);
  let found = 0;
  while (at !== -1) {
    b.copy(out, at);
    found += 1;
    at = out.indexOf(a, at + b.length);
  }
  if (found === 0) throw new Error(`renameMember: no member named ${from}`);
  return out;
}

/** Sets the uncompressed size a member declares (in the central directory, which readers trust). */
export function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const wanted = Buffer.from(name);
  for (let i = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i !== -1; i = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)) {
    const nameLength = out.readUInt16LE(i + 28);
    if (out.subarray(i + 46, i + 46 + nameLength).equals(wanted)) {
      out.writeUInt32LE(size, i + 24);
      return out;
    }
  }
  throw new Error(`declareSize: no member named ${name}`);
}

/**
 * A small CTFd event in teams mode with something of every kind, mappable or not: flags static,
 * case-insensitive and regex (one RE2 cannot run), hints with costs (one behind another), tags, a
 * challenge file, a page file and one the archive lacks, a prerequisite, next challenges (one
 * imported, one not), a dynamic challenge,
 * a hidden one, a plugin challenge type, an admin, two teams, solves with their submissions,
 * an award and a hint unlock. `prefix` makes names unique where a test shares its database.
 */
export function sampleCtfdEvent(prefix = ""): CtfdArchiveSpec {
  const p = (name: string) => `${prefix}${name}`;
  return {
    tables: {
      challenges: [
        { id: 1, name: p("Warmup"), description: "Say hello.", connection_info: "nc warmup.example 1337", max_attempts: 0, value: 50, category: p("Misc"), type: "standard", state: "visible", requirements: null, next_id: 3 },
        { id: 2, name: p("Shout"), description: "Any case will do.", connection_info: null, max_attempts: 5, value: 100, category: p("Crypto"), type: "standard", state: "visible", requirements: null, next_id: 5 },
        { id: 3, name: p("Pattern"), description: "Digits.", connection_info: null, max_attempts: 0, value: 150, category: p("Crypto"), type: "standard", state: "visible", requirements: { prerequisites: [1, 99], anonymize: true } },
        { id: 4, name: p("Falling"), description: "Worth less each time.", connection_info: null, max_attempts: 0, value: 500, category: p("Web"), type: "dynamic", state: "hidden", requirements: null },
        { id: 5, name: p("Quiz"), description: "Pick one.", connection_info: null, max_attempts: 0, value: 10, category: p("Misc"), type: "multiple_choice", state: "visible", requirements: null },
        { id: 6, name: p("Behind"), description: "Lookbehind.", connection_info: null, max_attempts: 0, value: 10, category: p("Misc"), type: "standard", state: "visible", requirements: null },
      ],
      dynamic_challenge: [{ id: 4, initial: 500, minimum: 100, decay: 10, function: "logarithmic" }],
      flags: [
        { id: 1, challenge_id: 1, type: "static", content: "flag{hello}", data: "" },
        { id: 2, challenge_id: 2, type: "static", content: "flag{LOUD.ish}", data: "case_insensitive" },
        { id: 3, challenge_id: 3, type: "regex", content: "flag\\{[0-9]+\\}", data: "" },
        { id: 4, challenge_id: 4, type: "static", content: "flag{falling}", data: "" },
        { id: 5, challenge_id: 4, type: "static", content: "flag{also-falling}", data: "" },
        { id: 6, challenge_id: 5, type: "static", content: "B", data: "" },
        { id: 7, challenge_id: 6, type: "regex", content: "(?<=a)b", data: "" },
      ],
      hints: [
        { id: 1, type: "standard", challenge_id: 1, content: "Look closer.", cost: 10, requirements: null },
        { id: 2, type: "standard", challenge_id: 1, content: "Closer still.", cost: 20, requirements: { prerequisites: [1] } },
        { id: 3, type: "standard", challenge_id: 2, content: "", cost: 0, requirements: null },
      ],
      tags: [
        { id: 1, challenge_id: 1, value: "easy" },
        { id: 2, challenge_id: 2, value: "crypto" },
      ],
      files: [
        { id: 1, type: "challenge", location: "0a1b2c3d4e5f60718293a4b5c6d7e8f9/notes.txt", challenge_id: 1, page_id: null, sha1sum: null },
        { id: 2, type: "page", location: "ffeeddccbbaa99887766554433221100/logo.png", challenge_id: null, page_id: 1, sha1sum: null },
        { id: 3, type: "challenge", location: "11111111111111111111111111111111/gone.txt", challenge_id: 2, page_id: null, sha1sum: null },
      ],
      users: [
        { id: 1, name: p("admin"), email: `${p("admin")}@ctfd.example`, password: "$bcrypt-sha256$v=2,t=2b,r=12$x", type: "admin", hidden: true, banned: false, verified: true, team_id: null, created: "2024-05-01T09:00:00.000000" },
        { id: 2, name: p("alice"), email: `${p("alice")}@ctfd.example`, password: "$bcrypt-sha256$v=2,t=2b,r=12$y", type: "user", hidden: false, banned: false, verified: true, team_id: 1, created: "2024-05-01T10:00:00.000000" },
        { id: 3, name: p("bob"), email: `${p("bob")}@ctfd.example`, password: "$bcrypt-sha256$v=2,t=2b,r=12$z", type: "user", hidden: false, banned: false, verified: false, team_id: 1, created: "2024-05-01T10:05:00" },
        { id: 4, name: p("carol"), email: `${p("carol")}@ctfd.example`, password: "$bcrypt-sha256$v=2,t=2b,r=12$w", type: "user", hidden: false, banned: false, verified: true, team_id: 2, created: "2024-05-01T10:10:00" },
      ],
      teams: [
        { id: 1, name: p("Red"), email: null, password: "$bcrypt-sha256$v=2,t=2b,r=12$t", captain_id: 2, hidden: false, banned: false, created: "2024-05-01T10:01:00" },
        { id: 2, name: p("Blue"), email: null, password: "$bcrypt-sha256$v=2,t=2b,r=12$u", captain_id: 4, hidden: false, banned: false, created: "2024-05-01T10:11:00" },
      ],
      submissions: [
        { id: 1, challenge_id: 1, user_id: 2, team_id: 1, ip: "10.0.0.2", provided: "flag{hello}", type: "correct", date: "2024-05-02T12:00:00.000000" },
        { id: 2, challenge_id: 1, user_id: 4, team_id: 2, ip: "10.0.0.4", provided: "flag{hello}", type: "correct", date: "2024-05-02T12:30:00.000000" },
        { id: 3, challenge_id: 4, user_id: 4, team_id: 2, ip: "10.0.0.4", provided: "flag{falling}", type: "correct", date: "2024-05-02T13:00:00.000000" },
        { id: 4, challenge_id: 5, user_id: 3, team_id: 1, ip: "10.0.0.3", provided: "B", type: "correct", date: "2024-05-02T13:30:00.000000" },
        { id: 5, challenge_id: 2, user_id: 3, team_id: 1, ip: "10.0.0.3", provided: "nope", type: "incorrect", date: "2024-05-02T14:00:00.000000" },
      ],
      solves: [
        { id: 1, challenge_id: 1, user_id: 2, team_id: 1 },
        { id: 2, challenge_id: 1, user_id: 4, team_id: 2 },
        { id: 3, challenge_id: 4, user_id: 4, team_id: 2 },
        { id: 4, challenge_id: 5, user_id: 3, team_id: 1 },
      ],
      awards: [{ id: 1, user_id: 2, team_id: 1, name: "Best write-up", description: "", value: 25, category: null, icon: null, requirements: null, date: "2024-05-03T00:00:00" }],
      unlocks: [{ id: 1, user_id: 3, team_id: 1, target: 1, type: "hints", date: "2024-05-02T11:00:00" }],
      config: [
        { id: 1, key: "user_mode", value: "teams" },
        { id: 2, key: "ctf_name", value: "Old CTF" },
      ],
      pages: [{ id: 1, title: "Rules", route: "rules", content: "Be nice." }],
    },
    uploads: {
      "0a1b2c3d4e5f60718293a4b5c6d7e8f9/notes.txt": "read me",
      "ffeeddccbbaa99887766554433221100/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    },
  };
}
