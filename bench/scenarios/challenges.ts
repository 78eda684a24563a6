import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { load, type Measurement, type Server, summarise } from "../harness.ts";

/**
 * The game under load: 1000 users in 250 teams, 100 challenges in 5 categories and 5000 solves.
 * Each request is signed with one of the 1000 users' tokens in turn, so per-team work is real.
 */
const USERS = 1000;
const TEAMS = 250;
const CATEGORIES = 5;
const CHALLENGES_PER_CATEGORY = 20;
const SOLVES_PER_TEAM = 20; // 250 teams x 20 = 5000 solves

export interface Seeded {
  tokens: string[];
  /** Per token, a challenge that user's team has not solved (so a wrong flag is judged, not refused). */
  openChallenge: number[];
}

export async function seedChallenges(url: string): Promise<Seeded> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    const teams = await client.query<{ id: number }>(
      `INSERT INTO teams (name, password) SELECT 'bench-team-' || g, 'bench-secret' FROM generate_series(1, $1) g RETURNING id`,
      [TEAMS],
    );
    const teamIds = teams.rows.map((r) => r.id);
    const userTeams = Array.from({ length: USERS }, (_, i) => teamIds[i % TEAMS]!);
    const users = await client.query<{ id: number; team_id: number }>(
      `INSERT INTO users (username, email, password_hash, email_verified, team_id)
       SELECT 'bench-user-' || i, 'bench-user-' || i || '@example.test', 'unused', true, t
         FROM unnest($1::int[]) WITH ORDINALITY AS u(t, i)
       RETURNING id, team_id`,
      [userTeams],
    );
    await client.query(`UPDATE teams t SET owner_id = (SELECT min(id) FROM users u WHERE u.team_id = t.id)`);
    const tokens = users.rows.map(() => randomBytes(32).toString("hex"));
    await client.query(`INSERT INTO auth_tokens (key_hash, user_id) SELECT * FROM unnest($1::text[], $2::int[])`, [
      tokens.map((t) => createHash("sha256").update(t).digest("hex")),
      users.rows.map((u) => u.id),
    ]);

    const categories = await client.query<{ id: number }>(
      `INSERT INTO categories (name, contained_type, description, display_order)
       SELECT 'Category ' || g, CASE WHEN g % 2 = 0 THEN 'campaign' ELSE 'jeopardy' END, 'Benchmark category ' || g, g
         FROM generate_series(1, $1) g RETURNING id`,
      [CATEGORIES],
    );
    const challengeIds: number[] = [];
    for (const [index, category] of categories.rows.entries()) {
      const created = await client.query<{ id: number }>(
        `INSERT INTO challenges (category_id, name, description, flag_type, flag_metadata, author, score, current_score, challenge_metadata, updated_at)
         SELECT $1, 'Challenge ' || $2 || '.' || g, 'A benchmark challenge with a **markdown** description, long enough to look like a real one. ' || repeat('Lorem ipsum dolor sit amet. ', 2),
                'plaintext', jsonb_build_object('flag', 'flag{bench-' || $2 || '-' || g || '}'), 'bench', 50 * g, 50 * g, '{}'::jsonb, now()
           FROM generate_series(1, $3) g RETURNING id`,
        [category.id, index + 1, CHALLENGES_PER_CATEGORY],
      );
      challengeIds.push(...created.rows.map((r) => r.id));
    }
    await client.query(
      `INSERT INTO tags (challenge_id, text) SELECT id, CASE WHEN id % 3 = 0 THEN 'web' WHEN id % 3 = 1 THEN 'crypto' ELSE 'pwn' END FROM unnest($1::int[]) id`,
      [challengeIds],
    );
    await client.query(`INSERT INTO hints (challenge_id, name, penalty, text) SELECT id, 'Hint', 10, 'Look closer.' FROM unnest($1::int[]) id`, [challengeIds]);

    // Team k solves 20 consecutive challenges starting at a team-specific offset; the first member submits.
    const solvedBy = new Map<number, Set<number>>();
    const solveTeams: number[] = [];
    const solveUsers: number[] = [];
    const solveChallenges: number[] = [];
    const firstMember = new Map<number, number>();
    for (const u of users.rows) if (!firstMember.has(u.team_id)) firstMember.set(u.team_id, u.id);
    for (const [k, teamId] of teamIds.entries()) {
      const set = new Set<number>();
      for (let j = 0; j < SOLVES_PER_TEAM; j++) {
        const challengeId = challengeIds[(k * 7 + j) % challengeIds.length]!;
        set.add(challengeId);
        solveTeams.push(teamId);
        solveUsers.push(firstMember.get(teamId)!);
        solveChallenges.push(challengeId);
      }
      solvedBy.set(teamId, set);
    }
    await client.query(
      `INSERT INTO solves (team_id, user_id, challenge_id, points, timestamp)
       SELECT s.t, s.u, s.c, ch.score, now() - (s.i || ' seconds')::interval
         FROM unnest($1::int[], $2::int[], $3::int[]) WITH ORDINALITY AS s(t, u, c, i) JOIN challenges ch ON ch.id = s.c`,
      [solveTeams, solveUsers, solveChallenges],
    );
    await client.query(`UPDATE challenges c SET solve_count = (SELECT count(*) FROM solves s WHERE s.challenge_id = c.id)`);
    await client.query(`UPDATE users u SET points = coalesce((SELECT sum(points) FROM solves s WHERE s.user_id = u.id), 0), leaderboard_points = coalesce((SELECT sum(points) FROM solves s WHERE s.user_id = u.id), 0)`);
    await client.query(`UPDATE teams t SET points = coalesce((SELECT sum(points) FROM solves s WHERE s.team_id = t.id), 0), leaderboard_points = coalesce((SELECT sum(points) FROM solves s WHERE s.team_id = t.id), 0)`);
    await client.query("COMMIT");
    await client.query("ANALYZE");

    const openChallenge = users.rows.map((u) => challengeIds.find((id) => !solvedBy.get(u.team_id)!.has(id))!);
    return { tokens, openChallenge };
  } finally {
    await client.end();
  }
}

/** GET /challenges/categories/ as 1000 different players. */
export async function benchCategoryListing(server: Server, seeded: Seeded): Promise<Measurement> {
  let n = 0;
  const result = await load({
    url: server.baseUrl,
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, path: "/api/v2/challenges/categories/", headers: { ...req.headers, authorization: `Token ${seeded.tokens[n++ % seeded.tokens.length]}` } }),
      },
    ],
  });
  return summarise("Category listing as a player (100 challenges, 1000 users' tokens)", result, { rps: 3000, p99: 100 });
}

/** POST /challenges/submit_flag/ with a wrong flag, as 1000 different players. */
export async function benchIncorrectSubmission(server: Server, seeded: Seeded): Promise<Measurement> {
  let n = 0;
  const result = await load({
    url: server.baseUrl,
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          const user = n++ % seeded.tokens.length;
          return {
            ...req,
            path: "/api/v2/challenges/submit_flag/",
            headers: { ...req.headers, authorization: `Token ${seeded.tokens[user]}`, "content-type": "application/json" },
            body: JSON.stringify({ challenge: seeded.openChallenge[user], flag: "flag{not-the-flag}" }),
          };
        },
      },
    ],
  });
  return summarise("Incorrect flag submission (1000 users' tokens)", result, { rps: 1500, p99: 100 });
}
