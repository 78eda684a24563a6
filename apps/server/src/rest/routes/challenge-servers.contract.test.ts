import { createChallengeServerTier, heartbeat } from "@flagship/api";
import { createCategory, createChallenge, createTeamWith, createUser, type TestTeam, type TestUser, uniqueName } from "@flagship/api/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestServer, type TestServer } from "../../testing.ts";

/**
 * The challenge-server paths' contract: who may call them, the error codes in the contract's
 * order, and what submit_job stores. Containers are the worker tier's business and are tested
 * against Docker with the worker; here a worker is only a heartbeat.
 */

let server: TestServer;
let staff: TestUser;
let team: TestTeam;
let loner: TestUser;
let categoryId: number;
const jobName = () => uniqueName("job").toLowerCase().replace(/[^a-z0-9]/g, "");
const spec = (name: string) => ({ name, port: 8000, replicas: 2, resources: { memory: 67108864, cpus: 0.5 }, image: "registry.example.test/ctf/web:1" });

async function setConfig(key: string, value: unknown) {
  const res = await server.api("POST", `/config/${key}/`, { token: staff.token, body: { value } });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  server = await createTestServer();
  staff = await createUser(server.world, { isStaff: true });
  team = await createTeamWith(server.world, 1);
  loner = await createUser(server.world);
  categoryId = (await createCategory(server.world)).id;
});
afterAll(async () => {
  await server.world.services.challengeServers?.close();
  await server.close();
});

describe("POST /challengeserver/submit_job/", () => {
  it("is 401 without a token and 403 permission_denied for players, storing nothing", async () => {
    const challenge = await createChallenge(server.world, categoryId);
    const body = { challenge_id: challenge.id, job_spec: spec(jobName()) };
    expect((await server.api("POST", "/challengeserver/submit_job/", { body })).status).toBe(401);
    const res = await server.api("POST", "/challengeserver/submit_job/", { token: team.members[0]!.token, body });
    expect(res.status).toBe(403);
    expect(res.body.m).toBe("permission_denied");
    expect(await server.world.services.db.challengeServerJob.count({ where: { challengeId: challenge.id } })).toBe(0);
  });

  it("stores the job as RACTF's client sends it (numbers as strings), names it in cserv_name and never echoes the registry password", async () => {
    const challenge = await createChallenge(server.world, categoryId, { challengeMetadata: { x: 2, y: 3 } });
    const name = jobName();
    const res = await server.api("POST", "/challengeserver/submit_job/", {
      token: staff.token,
      body: {
        challenge_id: String(challenge.id),
        job_spec: { name, port: "8000", replicas: "3", resources: { memory: "134217728", cpus: "0.25" }, image: "registry.example.test/ctf/web:1", registryAuth: { username: "bot", password: "s3cret-pass" } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name, challenge_id: challenge.id, port: 8000, replicas: 3, resources: { memory: 134217728, cpus: 0.25 }, has_registry_auth: true, dedicated: false, lifetime: 7200, writable: false });
    expect(JSON.stringify(res.body)).not.toContain("s3cret-pass");
    const row = await server.world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id } });
    expect(row.challengeMetadata).toEqual({ x: 2, y: 3, cserv_name: name });
    expect(await server.world.services.db.auditLog.count({ where: { action: "create_challenge_server_job" } })).toBeGreaterThan(0);
    const list = await server.api("GET", "/challengeserver/jobs/", { token: staff.token });
    expect(list.body.d.find((j: { name: string }) => j.name === name)).toMatchObject({ state: "deploying", healthy: 0, total: 3, instances: [] });
    expect(JSON.stringify(list.body)).not.toContain("s3cret-pass");
  });

  it("answers 400 with field errors for an invalid job_spec and changes nothing", async () => {
    const challenge = await createChallenge(server.world, categoryId);
    const res = await server.api("POST", "/challengeserver/submit_job/", {
      token: staff.token,
      body: { challenge_id: challenge.id, job_spec: { name: "x", port: "1e3", replicas: "", resources: { memory: 10, cpus: 0.2 }, image: "bad image" } },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.d).sort()).toEqual(["job_spec.image", "job_spec.port", "job_spec.replicas", "job_spec.resources.memory"]);
    expect(await server.world.services.db.challengeServerJob.count({ where: { challengeId: challenge.id } })).toBe(0);
    const missing = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: 999_999, job_spec: spec(jobName()) } });
    expect(missing.status).toBe(400);
    expect(missing.body.d).toHaveProperty("challenge_id");
  });

  it("takes a dedicated job's warm pool size (our extension), shows it in the job's state, and refuses it where it cannot apply", async () => {
    const challenge = await createChallenge(server.world, categoryId);
    const name = jobName();
    const shared = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(name), warm: "4" } } });
    expect(shared.status).toBe(400);
    expect(Object.keys(shared.body.d)).toEqual(["job_spec.warm"]);
    const tooMany = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(name), dedicated: true, warm: 1000 } } });
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.d)).toEqual(["job_spec.warm"]);
    expect(await server.world.services.db.challengeServerJob.count({ where: { challengeId: challenge.id } })).toBe(0);
    const res = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(name), dedicated: "true", warm: "4" } } });
    expect(res.status).toBe(201);
    expect(res.body.d).toMatchObject({ name, dedicated: true, warm: 4 });
    const list = await server.api("GET", "/challengeserver/jobs/", { token: staff.token });
    expect(list.body.d.find((j: { name: string }) => j.name === name)).toMatchObject({ warm: 4, warm_ready: 0 });
  });

  it("accepts any job name of 1-64 printable characters and keeps it exactly as given in cserv_name", async () => {
    for (const name of ["my_chall", `Web ${uniqueName("Ü")} (hard)!`]) {
      const challenge = await createChallenge(server.world, categoryId);
      const res = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: spec(name) } });
      expect(res.status).toBe(201);
      expect(res.body.d.name).toBe(name);
      const stored = await server.world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id } });
      expect((stored.challengeMetadata as Record<string, unknown>).cserv_name).toBe(name);
      await server.world.services.db.challenge.delete({ where: { id: challenge.id } });
    }
    const challenge = await createChallenge(server.world, categoryId);
    for (const name of ["", "x".repeat(65), "two\nlines", "   "]) {
      const res = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: spec(name) } });
      expect(res.status).toBe(400);
      expect(res.body.d).toHaveProperty(["job_spec.name"]);
    }
    expect(await server.world.services.db.challengeServerJob.count({ where: { challengeId: challenge.id } })).toBe(0);
  });

  it("refuses an image from a registry on a loopback, link-local or private address unless the operator lists it, storing nothing", async () => {
    const challenge = await createChallenge(server.world, categoryId);
    for (const image of ["127.0.0.1:6379/x:y", "localhost:5000/ctf/web:1", "169.254.169.254/latest:1", "10.1.2.3:5000/ctf/web:1", "192.168.0.10/ctf/web:1"]) {
      const res = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(jobName()), image } } });
      expect(res.status).toBe(400);
      expect(res.body.m).toBe("invalid");
      expect(Object.keys(res.body.d)).toEqual(["job_spec.image"]);
      expect(String(res.body.d["job_spec.image"])).toMatch(/internal address/);
    }
    expect(await server.world.services.db.challengeServerJob.count({ where: { challengeId: challenge.id } })).toBe(0);
    // Listed by the operator (CHALLENGE_REGISTRIES): allowed, and then only listed registries are.
    server.world.services.challengeRegistries = ["10.1.2.3:5000"];
    try {
      const listed = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(jobName()), image: "10.1.2.3:5000/ctf/web:1" } } });
      expect(listed.status).toBe(201);
      const other = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(jobName()), image: "registry.example.test/ctf/web:2" } } });
      expect(other.status).toBe(400);
      expect(String(other.body.d["job_spec.image"])).toMatch(/10\.1\.2\.3:5000/);
      const local = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(jobName()), image: "ctf/web:3" } } });
      expect(local.status).toBe(201);
    } finally {
      server.world.services.challengeRegistries = undefined;
    }
  });

  it("replaces a challenge's job on resubmission and refuses another challenge's job name", async () => {
    const challenge = await createChallenge(server.world, categoryId);
    const name = jobName();
    const first = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: spec(name) } });
    const again = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: { ...spec(name), replicas: 4 } } });
    expect(again.body.d).toMatchObject({ id: first.body.d.id, replicas: 4, generation: 2 });
    const other = await createChallenge(server.world, categoryId);
    const clash = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: other.id, job_spec: spec(name) } });
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({ m: "unique", d: { "job_spec.name": [expect.any(String)] } });
  });
});

describe("staff job management", () => {
  it("redeploys (new generation) and removes a job, clearing cserv_name; players may not", async () => {
    const challenge = await createChallenge(server.world, categoryId);
    const created = await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: spec(jobName()) } });
    const id = created.body.d.id;
    expect((await server.api("POST", `/challengeserver/jobs/${id}/redeploy/`, { token: team.members[0]!.token })).status).toBe(403);
    expect((await server.api("POST", `/challengeserver/jobs/${id}/redeploy/`, { token: staff.token })).body.d.generation).toBe(2);
    expect((await server.api("DELETE", `/challengeserver/jobs/${id}/`, { token: team.members[0]!.token })).status).toBe(403);
    expect((await server.api("DELETE", `/challengeserver/jobs/${id}/`, { token: staff.token })).body).toEqual({ s: true, m: "", d: "" });
    expect((await server.world.services.db.challenge.findUniqueOrThrow({ where: { id: challenge.id } })).challengeMetadata).toEqual({});
    expect((await server.api("DELETE", `/challengeserver/jobs/${id}/`, { token: staff.token })).status).toBe(404);
  });
});

describe("GET /challengeserver/instance/{cserv_name}/ and reset", () => {
  let name: string;
  let challengeId: number;

  beforeAll(async () => {
    const challenge = await createChallenge(server.world, categoryId);
    challengeId = challenge.id;
    name = jobName();
    await server.api("POST", "/challengeserver/submit_job/", { token: staff.token, body: { challenge_id: challenge.id, job_spec: spec(name) } });
  });

  it("is 401 without a token", async () => {
    expect((await server.api("GET", `/challengeserver/instance/${name}/`)).body).toMatchObject({ s: false, m: "not_authenticated" });
    expect((await server.api("GET", `/challengeserver/reset/${name}/`)).status).toBe(401);
  });

  it("is challenge_server_disabled without a worker tier, without a live worker, or when switched off", async () => {
    const player = team.members[0]!.token;
    let res = await server.api("GET", `/challengeserver/instance/${name}/`, { token: player });
    expect([res.status, res.body.m]).toEqual([403, "challenge_server_disabled"]);
    server.world.services.challengeServers = createChallengeServerTier({ redisUrl: inject("redisUrl"), log: { info() {}, warn() {}, error() {} }, prefix: uniqueName("fs-contract") });
    res = await server.api("GET", `/challengeserver/reset/${name}/`, { token: player });
    expect([res.status, res.body.m]).toEqual([403, "challenge_server_disabled"]);
    await heartbeat(server.world.services.db, { id: uniqueName("w"), backend: "docker", address: "127.0.0.1", capacity: 10 });
    await new Promise((r) => setTimeout(r, 1100)); // the liveness cache
    await setConfig("enable_challenge_server", false);
    res = await server.api("GET", `/challengeserver/instance/${name}/`, { token: player });
    expect([res.status, res.body.m]).toEqual([403, "challenge_server_disabled"]);
    await setConfig("enable_challenge_server", true);
  });

  it("is challenge_server_team_required for a player without a team", async () => {
    const res = await server.api("GET", `/challengeserver/instance/${name}/`, { token: loner.token });
    expect([res.status, res.body.m]).toEqual([403, "challenge_server_team_required"]);
  });

  it("is 404 for an unknown job and for hidden, locked or unreleased challenges, never leaking the job", async () => {
    const player = team.members[0]!.token;
    expect((await server.api("GET", "/challengeserver/instance/no-such-job/", { token: player })).status).toBe(404);
    await server.api("PATCH", `/challenges/${challengeId}/`, { token: staff.token, body: { hidden: true } });
    expect((await server.api("GET", `/challengeserver/instance/${name}/`, { token: player })).body.m).toBe("not_found");
    const gate = await createChallenge(server.world, categoryId);
    await server.api("PATCH", `/challenges/${challengeId}/`, { token: staff.token, body: { hidden: false, unlock_requirements: String(gate.id) } });
    expect((await server.api("GET", `/challengeserver/reset/${name}/`, { token: player })).body.m).toBe("not_found");
    await server.api("PATCH", `/challenges/${challengeId}/`, { token: staff.token, body: { unlock_requirements: "" } });
    await setConfig("start_time", Math.floor(Date.now() / 1000) + 3600);
    expect((await server.api("GET", `/challengeserver/instance/${name}/`, { token: player })).status).toBe(404);
    await setConfig("start_time", null);
  });

  it("answers challenge_server_error with a plain sentence when the deploy failed, the engine's words staying on the staff's jobs view", async () => {
    const reason = "Could not pull 10.0.0.7:5000/ctf/web:1: connect ECONNREFUSED /var/run/docker.sock";
    await server.world.services.db.challengeServerJob.update({ where: { name }, data: { error: reason } });
    const res = await server.api("GET", `/challengeserver/instance/${name}/`, { token: team.members[0]!.token });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ s: false, m: "challenge_server_error", d: "The challenge server could not be started. The organisers can see why; try again later." });
    const jobs = await server.api("GET", "/challengeserver/jobs/", { token: staff.token });
    expect(JSON.stringify(jobs.body)).toContain(reason);
  });
});
