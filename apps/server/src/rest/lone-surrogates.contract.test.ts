import { appRouter } from "@flagship/api";
import { createTeamWith, type TestUser } from "@flagship/api/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";
import type { Method, RestRoutes } from "./adapter.ts";
import { registerRestRoutes } from "./routes/index.ts";

/**
 * A lone UTF-16 surrogate (`"\ud800"` in JSON) has no UTF-8 form: stored, it became U+FFFD or
 * failed inside PostgreSQL with a 500. Every REST path and tRPC procedure refuses it as 400
 * `invalid` on its field, and nothing is stored.
 */
const { server, staff } = await useContractServer();
let player: TestUser;

beforeAll(async () => {
  player = (await createTeamWith(server.world)).members[0]!;
});

const MESSAGE = "Unpaired surrogate characters are not allowed.";
const refused = (field: string) => ({ status: 400, body: { s: false, m: "invalid", d: { [field]: [MESSAGE] } } });

/** The flawed strings: a high or a low surrogate alone, at the start, inside or at the end of text. */
const LONE = ["\ud800", "a\udc00b", "name\udbff", "\udfff\ud800"];

/**
 * A body as a client could send it: the fields the API reads (so each handler would get past its
 * own validation if the text were not refused first), the first one holding a lone surrogate.
 */
function body(lone: string): Record<string, unknown> {
  return {
    name: lone,
    value: "x",
    title: "x",
    body: "x",
    description: "x",
    username: "x",
    email: "x@example.test",
    password: "a long enough password 42",
    text: "x",
    content: "x",
    url: "x",
    flag: "x",
    tags: ["ok", lone],
  };
}

/** One value for a path parameter that names something real, so handlers would act on it. */
const PARAM_VALUES: Record<string, string> = { key: "event_name" };

/** Hashes of every table's rows: unchanged means nothing was stored. */
async function fingerprint(): Promise<Record<string, string>> {
  const db = server.world.services.db;
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
  );
  const hashes: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await db.$queryRawUnsafe<{ hash: string | null }[]>(`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS hash FROM "${name}" t`);
    hashes[name] = row?.hash ?? "";
  }
  return hashes;
}

describe("a lone surrogate in the input", () => {
  it("is 400 invalid on its field at the three paths that answered 500, and nothing is saved", async () => {
    const category = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Surrogates", contained_type: "jeopardy", description: "" } });
    const challenge = await server.api("POST", "/challenges/", {
      token: staff.token,
      body: { category: category.body.d.id, name: "Lone", description: "", challenge_type: "default", flag_type: "plaintext", flag_metadata: { flag: "flag{x}" }, score: 100 },
    });
    expect(challenge.status).toBe(201);
    const before = await fingerprint();

    const eventName = await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "\ud800" } });
    expect({ status: eventName.status, body: eventName.body }).toEqual(refused("value"));
    const hint = await server.api("POST", "/hints/", { token: staff.token, body: { challenge: challenge.body.d.id, name: "Hint", text: "a\udc00", penalty: 10 } });
    expect({ status: hint.status, body: hint.body }).toEqual(refused("text"));
    const file = await server.api("POST", "/challenges/files/", { token: staff.token, body: { challenge: challenge.body.d.id, name: "f\ud800.txt", url: "https://example.test/f", size: 1 } });
    expect({ status: file.status, body: file.body }).toEqual(refused("name"));
    const profile = await server.api("PATCH", "/member/self/", { token: player.token, body: { bio: "\ud83d" } });
    expect({ status: profile.status, body: profile.body }).toEqual(refused("bio"));

    expect(await fingerprint()).toEqual(before);
    expect((await server.api("GET", "/config/event_name/")).body.d).toBe("Flagship CTF");
  });

  it("keeps well-formed text outside the Basic Multilingual Plane (a surrogate pair) as it is", async () => {
    const res = await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "Flag \ud83d\udea9 CTF" } });
    expect(res.status).toBe(201);
    expect((await server.api("GET", "/config/event_name/")).body.d).toBe("Flag 🚩 CTF");
    await server.api("POST", "/config/event_name/", { token: staff.token, body: { value: "Flagship CTF" } });
  });

  it("is refused by every REST path and method, for staff, players and visitors: never a 500, nothing stored", async () => {
    const routes: { path: string; methods: Method[] }[] = [];
    const recorder: RestRoutes = { route: (path, handlers) => routes.push({ path, methods: Object.keys(handlers) as Method[] }) };
    registerRestRoutes(recorder, { dataDir: "unused: the recorder registers nothing" });
    expect(routes.length).toBeGreaterThan(50);

    const before = await fingerprint();
    const seen: string[] = [];
    for (const { path, methods } of routes) {
      const url = path.replace(/:([a-z_]+)/gi, (_m, name: string) => PARAM_VALUES[name] ?? "1");
      for (const method of methods.filter((m) => m !== "GET")) {
        for (const [i, lone] of LONE.entries()) {
          const token = [staff.token, player.token, undefined][i % 3];
          const res = await server.api(method, url, { ...(token && { token }), body: body(lone) });
          seen.push(`${method} ${path}`);
          expect({ method, path, lone, status: res.status, body: res.body }).toEqual({ method, path, lone, ...refused("name") });
          // Nested in a list of the only field.
          const nested = await server.api(method, url, { ...(token && { token }), body: { tags: ["ok", lone] } });
          expect({ method, path, status: nested.status, body: nested.body }).toEqual({ method, path, ...refused("tags") });
        }
      }
    }
    expect(new Set(seen).size).toBeGreaterThan(40);
    expect(await fingerprint()).toEqual(before);
  }, 120_000);

  it("is refused by every tRPC procedure, query or mutation, before it runs: never a 500, nothing stored", async () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>);
    expect(procedures.length).toBeGreaterThan(50);
    const before = await fingerprint();
    for (const [path, procedure] of procedures) {
      const type = procedure._def.type;
      if (type === "subscription") continue;
      for (const [i, lone] of LONE.entries()) {
        const token = [staff.token, player.token, undefined][i % 3];
        const headers: Record<string, string> = token ? { authorization: `Token ${token}` } : {};
        const input = JSON.stringify({ json: body(lone) });
        const res =
          type === "query"
            ? await server.app.inject({ method: "GET", url: `/trpc/${path}?input=${encodeURIComponent(input)}`, headers })
            : await server.app.inject({ method: "POST", url: `/trpc/${path}`, headers: { ...headers, "content-type": "application/json" }, payload: input });
        const data = res.json().error?.json?.data;
        expect({ path, lone, status: res.statusCode, code: data?.appCode, details: data?.details }).toEqual({ path, lone, status: 400, code: "invalid", details: { name: [MESSAGE] } });
      }
    }
    expect(await fingerprint()).toEqual(before);
  }, 120_000);
});
