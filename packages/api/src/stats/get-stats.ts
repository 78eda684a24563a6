import type { Context } from "../context.ts";
import { frozenView } from "../leaderboard/freeze.ts";
import type { StaffContext } from "../guards.ts";

export interface PublicStats {
  user_count: number;
  team_count: number;
  /** Every flag submission that was judged: correct solves plus incorrect attempts. */
  solve_count: number;
  correct_solve_count: number;
  avg_members: number;
}

export async function getStats(ctx: Context): Promise<PublicStats> {
  // While the scoreboard is frozen, solves and wrong flags after the freeze are not told (freeze.ts).
  const freeze = await frozenView(ctx);
  const [users, teams, solved, incorrect, members] = await Promise.all([
    ctx.db.user.count({ where: { isVisible: true } }),
    ctx.db.team.count({ where: { isVisible: true } }),
    freeze ? freeze.snapshot.solves : ctx.db.solve.count(),
    ctx.db.incorrectAttempt.count({ where: freeze ? { timestamp: { lte: freeze.at } } : {} }),
    ctx.db.user.count({ where: { isVisible: true, teamId: { not: null } } }),
  ]);
  return {
    user_count: users,
    team_count: teams,
    solve_count: solved + incorrect,
    correct_solve_count: solved,
    avg_members: teams === 0 ? 0 : Math.round((members / teams) * 100) / 100,
  };
}

export interface FullStats {
  users: { all: number; confirmed: number };
  teams: number;
  ips: number;
  total_points: number;
  challenges: Record<string, { correct: number; incorrect: number }>;
  team_point_distribution: Record<string, number>;
}

/** Staff statistics: accounts, distinct sign-up addresses, points, per-challenge attempts. */
export async function getFullStats(ctx: StaffContext): Promise<FullStats> {
  const [all, confirmed, teams, ips, points, correct, incorrect, distribution] = await Promise.all([
    ctx.db.user.count(),
    ctx.db.user.count({ where: { emailVerified: true } }),
    ctx.db.team.count(),
    ctx.db.$queryRaw<{ n: bigint }[]>`SELECT COUNT(DISTINCT ip)::bigint AS n FROM (SELECT signup_ip AS ip FROM users UNION SELECT last_ip FROM users) x WHERE ip IS NOT NULL`,
    ctx.db.team.aggregate({ _sum: { points: true } }),
    ctx.db.solve.groupBy({ by: ["challengeId"], _count: { _all: true } }),
    ctx.db.incorrectAttempt.groupBy({ by: ["challengeId"], _count: { _all: true } }),
    ctx.db.team.groupBy({ by: ["leaderboardPoints"], _count: { _all: true } }),
  ]);
  const challenges: FullStats["challenges"] = {};
  for (const c of correct) (challenges[c.challengeId] ??= { correct: 0, incorrect: 0 }).correct = c._count._all;
  for (const c of incorrect) (challenges[c.challengeId] ??= { correct: 0, incorrect: 0 }).incorrect = c._count._all;
  return {
    users: { all, confirmed },
    teams,
    ips: Number(ips[0]?.n ?? 0),
    total_points: points._sum.points ?? 0,
    challenges,
    team_point_distribution: Object.fromEntries(distribution.map((d) => [String(d.leaderboardPoints), d._count._all])),
  };
}
