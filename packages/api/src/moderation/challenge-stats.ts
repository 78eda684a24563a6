import type { StaffContext } from "../guards.ts";

export interface ChallengeStat {
  id: number;
  name: string;
  category: string;
  hidden: boolean;
  solves: number;
  incorrect: number;
  /** Teams that sent at least one flag, right or wrong. */
  teams_tried: number;
  /** Percent of all teams that solved it. */
  solve_rate: number;
}

/**
 * Every challenge, those nobody has tried included (the challenge table leads, the counts are
 * joined to it), with its solve rate as the share of teams that solved it. Three grouped reads.
 */
export async function challengeStats(ctx: StaffContext): Promise<{ teams: number; challenges: ChallengeStat[] }> {
  const [teams, challenges, tried] = await Promise.all([
    ctx.db.team.count(),
    ctx.db.challenge.findMany({
      select: { id: true, name: true, hidden: true, solveCount: true, category: { select: { name: true } }, _count: { select: { attempts: true } } },
      orderBy: [{ categoryId: "asc" }, { id: "asc" }],
    }),
    ctx.db.$queryRaw<{ challenge_id: number; n: number }[]>`
      SELECT challenge_id, COUNT(DISTINCT team_id)::int AS n
        FROM (SELECT challenge_id, team_id FROM solves UNION SELECT challenge_id, team_id FROM incorrect_attempts) x
       GROUP BY challenge_id`,
  ]);
  const triedBy = new Map(tried.map((r) => [r.challenge_id, r.n]));
  return {
    teams,
    challenges: challenges.map((c) => ({
      id: c.id,
      name: c.name,
      category: c.category.name,
      hidden: c.hidden,
      solves: c.solveCount,
      incorrect: c._count.attempts,
      teams_tried: triedBy.get(c.id) ?? 0,
      solve_rate: teams === 0 ? 0 : Math.round((c.solveCount / teams) * 10_000) / 100,
    })),
  };
}
