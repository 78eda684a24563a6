import type { Db } from "@flagship/db";
import { load, type Measurement, type Server, summarise } from "../harness.ts";
import type { Seeded } from "../seed.ts";

/** What an organiser's screen asks for: 50 at a time, over a log of at least 100,000 attempts. */
const ATTEMPTS = 100_000;
/**
 * An open log reads its loaded pages again at most once a second however fast flags arrive (the
 * web app folds a burst of events into one refetch a second): 50 staff screens with two pages
 * loaded each read 100 pages a second. The goal is twice that, each page within 100 ms.
 */
const GOAL = { rps: 200, p99: 100 };

/**
 * Fills the log to ATTEMPTS wrong flags (spread over the seeded players, their teams and the
 * challenges, and over the last two days), straight in SQL: the scenario measures reading the log, not writing it.
 */
async function fillLog(db: Db): Promise<number> {
  const existing = await db.incorrectAttempt.count();
  const missing = Math.max(ATTEMPTS - existing, 0);
  if (missing > 0) {
    await db.$executeRaw`
      WITH u AS (SELECT array_agg(id ORDER BY id) AS ids, array_agg(team_id ORDER BY id) AS teams FROM users WHERE team_id IS NOT NULL),
           c AS (SELECT array_agg(id ORDER BY id) AS ids FROM challenges)
      INSERT INTO incorrect_attempts (team_id, user_id, challenge_id, flag, timestamp, ip)
      SELECT u.teams[1 + g % cardinality(u.ids)], u.ids[1 + g % cardinality(u.ids)], c.ids[1 + g % cardinality(c.ids)],
             'flag{bench-' || g || '}', now() - make_interval(secs => g * 1.7), '10.0.' || (g % 250) || '.' || (g % 200)
        FROM generate_series(1, ${missing}) g, u, c`;
    // A log that grew over two days has been vacuumed and analysed by autovacuum many times over
    // (inserts alone start it): its statistics gathered and its pages marked all-visible, so a
    // count reads the index alone. One filled in a second has neither, and the planner would cost
    // its pages as if it were empty.
    await db.$executeRaw`VACUUM ANALYZE incorrect_attempts`;
  }
  return existing + missing;
}

const path = (input: object) => `/trpc/moderation.submissions?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;

/** The cursor of the page `depth` rows into the log, reached as a screen would: page after page (of 100). */
async function cursorAt(server: Server, token: string, depth: number): Promise<string> {
  let cursor: string | null = null;
  for (let read = 0; read < depth; read += 100) {
    const response = await fetch(`${server.baseUrl}${path({ limit: 100, cursor })}`, { headers: { authorization: `Token ${token}` } });
    if (!response.ok) throw new Error(`submissions page: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { result: { data: { json: { next_cursor: string | null } } } };
    cursor = body.result.data.json.next_cursor;
    if (cursor === null) throw new Error(`the log ends before ${depth} rows`);
  }
  return cursor!;
}

/**
 * The staff submissions log (tRPC moderation.submissions): the newest page, a page 5,000 rows deep
 * (by its cursor, as "Load more" reaches it), and pages filtered by challenge, by team and to right
 * or wrong flags, taken in turn.
 */
export async function benchSubmissionsLog(server: Server, seeded: Seeded, db: Db): Promise<Measurement> {
  const total = await fillLog(db);
  const team = await db.team.findFirstOrThrow({ select: { id: true }, orderBy: { id: "asc" } });
  const inputs = [
    { limit: 50 },
    { limit: 50, cursor: await cursorAt(server, seeded.staffToken, 5_000) },
    { limit: 50, challenge: seeded.challenges[0]!.id },
    { limit: 50, team: team.id },
    { limit: 50, correct: true },
    { limit: 50, correct: false },
  ];
  const paths = inputs.map(path);
  let n = 0;
  const result = await load({
    url: server.urls,
    atRate: GOAL.rps,
    requests: [{ method: "GET", headers: { authorization: `Token ${seeded.staffToken}` }, setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length]! }) }],
  });
  return summarise(`Staff submissions log, 50 a page (newest, 5000 deep, by challenge, by team, right, wrong) over ${total} wrong flags and the seed's solves`, result, GOAL);
}
