import type { Db } from "@flagship/db";
import type { Server } from "../harness.ts";
import type { Seeded } from "../seed.ts";

export interface BurstResult {
  name: string;
  value: string;
  goal: string;
  met: boolean;
}

const TEAMS = 200;

/** Sends a team's correct flag to the server's copies in turn (a team's two requests go to different copies). */
function sender(server: Server) {
  let dealt = 0;
  return async (token: string, challenge: { id: number; flag: string }) => {
    const response = await fetch(`${server.urls[dealt++ % server.urls.length]}/api/v2/challenges/submit_flag/`, {
      method: "POST",
      headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ challenge: challenge.id, flag: challenge.flag }),
    });
    return { status: response.status, m: ((await response.json()) as { m?: string }).m ?? "" };
  };
}

/**
 * The players have the challenge page open when they send the flag: each reads the challenge
 * listing first (as the page did), so the burst meets the server as an event does, with the
 * players' sessions and team state already known to the copies, not with a cold start.
 */
async function browse(server: Server, tokens: string[]): Promise<void> {
  let dealt = 0;
  await Promise.all(
    tokens.map(async (token) => {
      const response = await fetch(`${server.urls[dealt++ % server.urls.length]}/api/v2/challenges/categories/`, { headers: { authorization: `Token ${token}` } });
      await response.arrayBuffer();
    }),
  );
}

/** The database's own count of the burst: solves and solve score records per (team, challenge) taking part. */
async function countSolves(db: Db, pairs: { teamId: number; challengeId: number }[]) {
  const rows = await db.$queryRaw<{ solves: number; records: number }[]>`
    SELECT count(DISTINCT s.id)::int AS solves, count(r.id)::int AS records
      FROM unnest(${pairs.map((p) => p.teamId)}::int[], ${pairs.map((p) => p.challengeId)}::int[]) AS p(team_id, challenge_id)
      JOIN solves s ON s.team_id = p.team_id AND s.challenge_id = p.challenge_id
      LEFT JOIN score_records r ON r.solve_id = s.id AND r.reason = 'solve'
     GROUP BY p.team_id, p.challenge_id`;
  return { pairs: rows.length, exactlyOnce: rows.length === pairs.length && rows.every((r) => r.solves === 1 && r.records === 1) };
}

function verdict(name: string, ms: number, answers: { m: string }[], counted: { pairs: number; exactlyOnce: boolean }, extra = ""): BurstResult {
  const correct = answers.filter((a) => a.m === "correct_flag").length;
  const already = answers.filter((a) => a.m === "already_solved_challenge").length;
  const exact = counted.exactlyOnce && correct === TEAMS && already === TEAMS;
  return {
    name,
    value: `${ms} ms for ${answers.length} answers; ${correct} correct, ${already} already solved; the database: ${counted.pairs} teams with exactly ${counted.exactlyOnce ? "one" : "NOT one"} solve and score record each${extra}`,
    goal: "all answered within 1 s; exactly once per team, 0 errors",
    met: exact && ms <= 1000,
  };
}

/**
 * 200 teams send the correct flag of one challenge none of them has solved, each twice, all at
 * once (400 requests in flight): the first-blood rush of a popular challenge. A decay challenge,
 * so each solve changes its value and re-scores the teams before it. Exactly once: each team gets
 * one correct_flag and one already_solved, and the database holds exactly one solve and one score
 * record per team, first blood with the first solve committed.
 */
export async function benchSolveBurst(server: Server, seeded: Seeded, db: Db): Promise<BurstResult> {
  // The decay challenge the most teams have not solved yet; the first TEAMS of them take part. A
  // team's reserved challenge (the target of its wrong flags, see seededEvent) is left alone: solved
  // here, later scenarios' wrong flags for it would be answered already_solved and counted as errors.
  const open = (id: number) => seeded.players.filter((p, i) => i < seeded.counts.teams && !seeded.solved.get(p.teamId)!.has(id) && seeded.openChallenge[i] !== id);
  const decaying = new Set(
    (await db.challenge.findMany({ where: { id: { in: seeded.challenges.map((c) => c.id) }, pointsType: "decay" }, select: { id: true } })).map((c) => c.id),
  );
  const candidates = seeded.challenges.filter((c) => decaying.has(c.id));
  const challenge = (candidates.length > 0 ? candidates : seeded.challenges).reduce((best, c) => (open(c.id).length > open(best.id).length ? c : best));
  const teams = open(challenge.id).slice(0, TEAMS);
  if (teams.length < TEAMS) throw new Error(`Only ${teams.length} teams can take part in the burst`);
  for (const p of teams) seeded.solved.get(p.teamId)!.add(challenge.id);
  // The second request of a team comes from its second member when it has one.
  const second = (teamId: number) => seeded.players.findLast((p) => p.teamId === teamId)!;
  const tokens = teams.flatMap((p) => [p.token, second(p.teamId).token]);
  await browse(server, tokens);
  await browse(server, tokens);
  const send = sender(server);
  const decayRecords = async () =>
    (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM score_records r JOIN solves s ON s.id = r.solve_id WHERE r.reason = 'decay' AND s.challenge_id = ${challenge.id}`)[0]!.n;
  const decaysBefore = await decayRecords();
  const started = performance.now();
  const answers = await Promise.all(teams.flatMap((p) => [send(p.token, challenge), send(second(p.teamId).token, challenge)]));
  const ms = Math.round(performance.now() - started);

  const counted = await countSolves(db, teams.map((p) => ({ teamId: p.teamId, challengeId: challenge.id })));
  // First blood is the challenge's first solve committed (the lowest id), the burst's or an earlier one.
  const blood = await db.solve.findMany({ where: { challengeId: challenge.id }, orderBy: { id: "asc" }, select: { firstBlood: true } });
  const firstBloodRight = blood[0]?.firstBlood === true && blood.filter((s) => s.firstBlood).length === 1;
  const decays = (await decayRecords()) - decaysBefore;
  const result = verdict(
    `Correct-solve burst: ${TEAMS} teams send one ${decaying.has(challenge.id) ? "decay " : ""}challenge's flag at once, each twice`,
    ms,
    answers,
    counted,
    `; first blood ${firstBloodRight ? "with the first solve committed" : "NOT with the first solve committed"}; ${decays} decay re-scoring records`,
  );
  return { ...result, met: result.met && firstBloodRight };
}

/**
 * 200 teams each send the correct flag of a different challenge, each twice, all at once: a burst
 * no batching of one challenge's solves helps, since no two solves meet on a challenge row. The
 * challenges are created for it first (by staff, over REST).
 */
export async function benchSpreadBurst(server: Server, seeded: Seeded, db: Db): Promise<BurstResult> {
  const staff = { authorization: `Token ${seeded.staffToken}`, "content-type": "application/json" };
  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${server.urls[0]}/api/v2${path}`, { method: "POST", headers: staff, body: JSON.stringify(body) });
    const json = (await response.json()) as { d: { id: number } };
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.d;
  };
  const category = await api("/challenges/categories/", { name: "Burst", contained_type: "jeopardy", description: "One challenge a team" });
  const challenges: { id: number; flag: string }[] = [];
  for (let n = 1; n <= TEAMS; n++) {
    const flag = `flag{spread-${n}}`;
    const view = await api("/challenges/", {
      category: category.id,
      name: `Spread ${n}`,
      description: "One team's challenge in the spread burst.",
      author: "bench",
      score: 100,
      points_type: n % 10 === 0 ? "decay" : "basic",
      flag_type: "plaintext",
      flag_metadata: n % 10 === 0 ? { flag, decay_constant: 0.9, min_points: 10 } : { flag },
      tags: [],
    });
    challenges.push({ id: view.id, flag });
  }
  const teams = seeded.players.slice(0, TEAMS);
  const second = (teamId: number) => seeded.players.findLast((p) => p.teamId === teamId)!;
  const tokens = teams.flatMap((p) => [p.token, second(p.teamId).token]);
  await browse(server, tokens);
  await browse(server, tokens);
  const send = sender(server);
  const started = performance.now();
  const answers = await Promise.all(teams.flatMap((p, i) => [send(p.token, challenges[i]!), send(second(p.teamId).token, challenges[i]!)]));
  const ms = Math.round(performance.now() - started);
  const counted = await countSolves(db, teams.map((p, i) => ({ teamId: p.teamId, challengeId: challenges[i]!.id })));
  return verdict(`Correct-solve burst: ${TEAMS} teams send ${TEAMS} different challenges' flags at once, each twice`, ms, answers, counted);
}
