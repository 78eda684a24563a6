import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { startRedis } from "@flagship/db/redis";
import pg from "pg";
import { BANNER_IMAGE, BANNER_PORT, buildBannerImage } from "../../apps/worker/src/challenge-servers/test-image.ts";
import { ROOT, type Server, startServer } from "../harness.ts";
import type { Seeded } from "./challenges.ts";

/**
 * The worker tier under the start-of-event rush: a server with Redis and one worker process on
 * this machine's Docker engine (image built locally from busybox, ports on 127.0.0.1). Jobs are
 * submitted through the REST API as staff. Measures how long a team waits for its instance of a
 * shared job, how long 50 teams asking at once wait for dedicated ones, and how long a killed
 * replica takes to be replaced.
 *
 * The dedicated rush is measured as an organiser expecting 50 teams at once would set the job
 * up: with a warm pool of 50 (`warm: 50`), started before the event. The same rush on a job
 * without a pool, every container created on demand, is reported as its own row: it is what the
 * first teams past the pool's size (or of a job whose instances carry each team's flag) wait.
 */

export interface TierResult {
  name: string;
  value: string;
  goal: string;
  met: boolean;
}

const SHARED_REQUESTS = 500;
const SHARED_CONCURRENCY = 10;
const DEDICATED_TEAMS = 50;
/** The warm pool an organiser expecting DEDICATED_TEAMS teams at once gives the job. */
const WARM_POOL = DEDICATED_TEAMS;
/** The worker's default INSTANCE_NETWORK_SPARES. */
const SPARE_NETWORKS = 64;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(url: string, token: string): Promise<{ ms: number; ok: boolean; port: number | null }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Token ${token}` } });
  const body = (await response.json()) as { s: boolean; d: { port?: number } };
  return { ms: performance.now() - started, ok: response.ok && body.s, port: body.d?.port ?? null };
}

async function staffToken(client: pg.Client): Promise<string> {
  const user = await client.query<{ id: number }>(
    `INSERT INTO users (username, email, password_hash, email_verified, is_staff) VALUES ('bench-staff', 'bench-staff@example.test', 'unused', true, true) RETURNING id`,
  );
  const token = randomBytes(32).toString("hex");
  await client.query(`INSERT INTO auth_tokens (key_hash, user_id) VALUES ($1, $2)`, [createHash("sha256").update(token).digest("hex"), user.rows[0]!.id]);
  return token;
}

async function submitJob(server: Server, token: string, challengeId: number, spec: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/v2/challengeserver/submit_job/`, {
    method: "POST",
    headers: { authorization: `Token ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge_id: challengeId, job_spec: { port: BANNER_PORT, image: BANNER_IMAGE, resources: { memory: 33554432, cpus: 0.1 }, ...spec } }),
  });
  if (response.status !== 201) throw new Error(`submit_job answered ${response.status}: ${await response.text()}`);
}

/** Spare networks of the bench worker that no container took yet. */
function unusedSpares(deployment: string): number {
  const lines = (args: string[]) => spawnSync("docker", args).stdout.toString().trim().split("\n").filter(Boolean);
  const spares = lines(["network", "ls", "--format", "{{.Name}}", "--filter", "label=org.flagship.spare=bench-worker", "--filter", `label=org.flagship.deployment=${deployment}`]);
  const used = new Set(lines(["ps", "-a", "--format", "{{.Networks}}", "--filter", `label=org.flagship.deployment=${deployment}`]).flatMap((n) => n.split(",")));
  return spares.filter((n) => !used.has(n)).length;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function benchChallengeServers(databaseUrl: string, seeded: Seeded): Promise<TierResult[] | string> {
  if (spawnSync("docker", ["info"], { stdio: "ignore" }).status !== 0) return "not measured: no Docker engine answers on this machine";
  buildBannerImage();
  const redis = await startRedis();
  if (!redis.url) return "not measured: redis-server is not installed";
  const deployment = `bench${process.pid}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let server: Server | undefined;
  let worker: ChildProcess | undefined;
  try {
    server = await startServer(databaseUrl, { REDIS_URL: redis.url, WORKERS: "0" });
    worker = spawn(process.execPath, ["--enable-source-maps", "apps/worker/dist/main.js"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url, WORKER_ID: "bench-worker", DEPLOYMENT_ID: deployment, INSTANCE_BIND: "127.0.0.1", LOG_LEVEL: "warn", CHALLENGE_BACKEND: "docker" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const staff = await staffToken(client);
    /** Whether the dedicated job's warm pool holds WARM_POOL healthy instances waiting for teams. */
    const poolFull = async () => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM challenge_server_instances i JOIN challenge_server_jobs j ON j.id = i.job_id WHERE j.name = 'bench-dedicated' AND i.pooled AND i.team_id IS NULL AND i.status = 'healthy'`,
      );
      return Number(rows[0]!.n) === WARM_POOL;
    };
    const challenges = await client.query<{ id: number }>(`SELECT id FROM challenges ORDER BY id LIMIT 3`);
    const [sharedChallenge, dedicatedChallenge, coldChallenge] = challenges.rows.map((r) => r.id);
    await until("the worker's heartbeat", async () => (await client.query(`SELECT 1 FROM challenge_server_workers WHERE id = 'bench-worker'`)).rowCount === 1);
    // The first job of a fresh server and worker, its image on the engine: submit_job to the first
    // team's answer with an address (given once the instance answers its health check).
    const sharedUrl = `${server.baseUrl}/api/v2/challengeserver/instance/bench-shared/`;
    const firstSubmitted = performance.now();
    await submitJob(server, staff, sharedChallenge!, { name: "bench-shared", replicas: 5 });
    await until("the first job's instance", async () => (await timed(sharedUrl, seeded.tokens[0]!)).ok, 60_000);
    const firstJobMs = performance.now() - firstSubmitted;
    await submitJob(server, staff, dedicatedChallenge!, { name: "bench-dedicated", dedicated: true, lifetime: 600, warm: WARM_POOL });
    await submitJob(server, staff, coldChallenge!, { name: "bench-cold", dedicated: true, lifetime: 600 });
    // The dedicated job was submitted before the rush, as for an event: wait for the worker to
    // have made its spare networks (its default count), so teams do not wait for networks.
    await until(
      "the worker's spare networks",
      async () => spawnSync("docker", ["network", "ls", "-q", "--filter", `label=org.flagship.spare=bench-worker`, "--filter", `label=org.flagship.deployment=${deployment}`]).stdout.toString().trim().split("\n").filter(Boolean).length >= SPARE_NETWORKS,
      180_000,
    );
    await until(`a warm pool of ${WARM_POOL}`, poolFull, 240_000);
    // The pool took spare networks; the rush on demand gets its own, as a quiet event would have.
    await until("the worker's spare networks again", async () => unusedSpares(deployment) >= SPARE_NETWORKS, 180_000);
    await until("5 healthy replicas", async () => {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM challenge_server_instances i JOIN challenge_server_jobs j ON j.id = i.job_id WHERE j.name = 'bench-shared' AND i.status = 'healthy'`);
      return Number(rows[0]!.n) === 5;
    });

    // Shared: 500 requests from 250 teams, 10 at a time (first ones pin, later ones are pinned).
    const shared: number[] = [];
    let failures = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: SHARED_CONCURRENCY }, async () => {
        while (next < SHARED_REQUESTS) {
          const i = next++;
          const result = await timed(sharedUrl, seeded.tokens[i % 250]!);
          shared.push(result.ms);
          if (!result.ok) failures++;
        }
      }),
    );
    shared.sort((a, b) => a - b);

    // Dedicated: 50 teams ask at the same moment; each claims a warm instance of the pool.
    const rush = async (job: string, firstTeam: number) => {
      const url = `${server!.baseUrl}/api/v2/challengeserver/instance/${job}/`;
      const answers = await Promise.all(Array.from({ length: DEDICATED_TEAMS }, (_, i) => timed(url, seeded.tokens[firstTeam + i]!)));
      return { ms: answers.map((r) => r.ms).sort((a, b) => a - b), failures: answers.filter((r) => !r.ok).length, ports: new Set(answers.map((r) => r.port)).size };
    };
    const warm = await rush("bench-dedicated", 0);
    // The worker tier refills the pool; the cold rush starts once it is done, on a quiet engine.
    await until(`the warm pool of ${WARM_POOL} refilled`, poolFull, 240_000);
    await until("the worker's spare networks again", async () => unusedSpares(deployment) >= SPARE_NETWORKS, 180_000);
    // The same rush, other teams, on the job without a pool: each waits for its container to be made.
    const cold = await rush("bench-cold", DEDICATED_TEAMS);

    // Replacement: kill one shared replica's container, time until its row is healthy on a new one.
    const { rows: victims } = await client.query<{ id: number; container_id: string; port: number }>(
      `SELECT i.id, i.container_id, i.port FROM challenge_server_instances i JOIN challenge_server_jobs j ON j.id = i.job_id WHERE j.name = 'bench-shared' ORDER BY i.id LIMIT 1`,
    );
    const victim = victims[0]!;
    const killed = spawnSync("docker", ["inspect", "-f", "{{.Id}}", victim.container_id]).stdout.toString().trim();
    const killedAt = performance.now();
    spawnSync("docker", ["kill", killed], { stdio: "ignore" });
    // Replaced: the row is healthy again on a new container (on the same host port where free).
    await until(
      "the replica healthy on a new container",
      async () => {
        const running = spawnSync("docker", ["ps", "-q", "--no-trunc", "--filter", `label=org.flagship.instance=${victim.id}`, "--filter", "status=running"]).stdout.toString().trim();
        if (running === "" || running === killed) return false;
        return (await client.query(`SELECT 1 FROM challenge_server_instances WHERE id = $1 AND status = 'healthy'`, [victim.id])).rowCount === 1;
      },
      60_000,
    );
    const replacementMs = performance.now() - killedAt;

    const p50 = percentile(shared, 50);
    const p95 = percentile(shared, 95);
    const dedicatedRow = (result: Awaited<ReturnType<typeof rush>>) =>
      `p50 ${(percentile(result.ms, 50) / 1000).toFixed(2)} s, p95 ${(percentile(result.ms, 95) / 1000).toFixed(2)} s, max ${((result.ms.at(-1) ?? 0) / 1000).toFixed(2)} s, ${result.failures} failed, ${result.ports} distinct instances`;
    return [
      {
        name: "First job of a fresh server and worker (image on the engine): submit_job to the first team's address",
        value: `${(firstJobMs / 1000).toFixed(2)} s`,
        goal: "< 10 s",
        met: firstJobMs < 10_000,
      },
      {
        name: `Team's instance of a shared job (5 replicas, ${SHARED_REQUESTS} requests from 250 teams, ${SHARED_CONCURRENCY} at a time)`,
        value: `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ${failures} failed`,
        goal: "p50 < 50 ms",
        met: p50 < 50 && failures === 0,
      },
      {
        name: `Dedicated instances for ${DEDICATED_TEAMS} teams asking at once (job submitted beforehand with a warm pool of ${WARM_POOL})`,
        value: dedicatedRow(warm),
        goal: "p50 < 2 s",
        met: percentile(warm.ms, 50) < 2000 && warm.failures === 0 && warm.ports === DEDICATED_TEAMS,
      },
      {
        name: `Dedicated instances for ${DEDICATED_TEAMS} teams asking at once, no pool (every container created on demand)`,
        value: dedicatedRow(cold),
        goal: "none (the cost the pool takes off the request)",
        met: cold.failures === 0,
      },
      {
        name: "Replacement of a killed replica (kill to healthy again)",
        value: `${(replacementMs / 1000).toFixed(2)} s`,
        goal: "< 30 s",
        met: replacementMs < 30_000,
      },
    ];
  } finally {
    // Removing the jobs lets the worker tear its containers down before it stops.
    await client.query(`DELETE FROM challenge_server_jobs`).catch(() => undefined);
    if (worker && worker.exitCode === null) {
      await new Promise((r) => setTimeout(r, 3000));
      await new Promise<void>((resolve) => {
        worker!.once("exit", () => resolve());
        worker!.kill("SIGTERM");
      });
    }
    await server?.stop();
    await client.end();
    await redis.stop();
    const leftover = spawnSync("docker", ["ps", "-aq", "--filter", `label=org.flagship.deployment=${deployment}`]).stdout.toString().trim();
    if (leftover) spawnSync("docker", ["rm", "-f", ...leftover.split("\n")], { stdio: "ignore" });
    const networks = spawnSync("docker", ["network", "ls", "-q", "--filter", `label=org.flagship.deployment=${deployment}`]).stdout.toString().trim();
    if (networks) spawnSync("docker", ["network", "rm", ...networks.split("\n")], { stdio: "ignore" });
  }
}
