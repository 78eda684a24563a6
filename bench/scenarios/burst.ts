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

/**
 * 200 teams send the correct flag of one challenge none of them has solved, each twice, all at
 * once (400 requests in flight). Exactly once: each team gets one correct_flag and one
 * already_solved, and the database holds exactly one solve and one score record per team.
 */
export async function benchSolveBurst(server: Server, seeded: Seeded, db: Db): Promise<BurstResult> {
  // The challenge the most teams have not solved yet; the first TEAMS of them take part. A team's
  // reserved challenge (the target of its wrong flags, see seededEvent) is left alone: solved here,
  // later scenarios' wrong flags for it would be answered already_solved and counted as errors.
  const open = (id: number) => seeded.players.filter((p, i) => i < seeded.counts.teams && !seeded.solved.get(p.teamId)!.has(id) && seeded.openChallenge[i] !== id);
  const challenge = seeded.challenges.reduce((best, c) => (open(c.id).length > open(best.id).length ? c : best));
  const teams = open(challenge.id).slice(0, TEAMS);
  if (teams.length < TEAMS) throw new Error(`Only ${teams.length} teams can take part in the burst`);
  for (const p of teams) seeded.solved.get(p.teamId)!.add(challenge.id);
  // The second request of a team comes from its second member when it has one.
  const second = (teamId: number) => seeded.players.findLast((p) => p.teamId === teamId)!;
  // Requests are dealt out to the server's copies in turn: a team's two requests go to different copies.
  let dealt = 0;
  const send = async (token: string) => {
    const response = await fetch(`${server.urls[dealt++ % server.urls.length]}/api/v2/challenges/submit_flag/`, {
      method: "POST",
      headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ challenge: challenge.id, flag: challenge.flag }),
    });
    return { status: response.status, m: ((await response.json()) as { m?: string }).m ?? "" };
  };
  const started = performance.now();
  const answers = await Promise.all(teams.flatMap((p) => [send(p.token), send(second(p.teamId).token)]));
  const ms = Math.round(performance.now() - started);

  const correct = answers.filter((a) => a.m === "correct_flag").length;
  const already = answers.filter((a) => a.m === "already_solved_challenge").length;
  const teamIds = teams.map((p) => p.teamId);
  const rows = await db.$queryRaw<{ team_id: number; solves: number; records: number }[]>`
    SELECT s.team_id, count(DISTINCT s.id)::int AS solves, count(r.id)::int AS records
      FROM solves s LEFT JOIN score_records r ON r.solve_id = s.id AND r.reason = 'solve'
     WHERE s.challenge_id = ${challenge.id} AND s.team_id = ANY(${teamIds}::int[])
     GROUP BY s.team_id`;
  const exactlyOnce = rows.length === TEAMS && rows.every((r) => r.solves === 1 && r.records === 1);
  const met = exactlyOnce && correct === TEAMS && already === TEAMS;
  return {
    name: `Correct-solve burst: ${TEAMS} teams send one challenge's flag at once, each twice`,
    value: `${ms} ms for ${answers.length} answers; ${correct} correct, ${already} already solved; ${rows.length} teams with exactly ${exactlyOnce ? "one" : "NOT one"} solve and score record each`,
    goal: "exactly once per team, 0 errors",
    met,
  };
}
