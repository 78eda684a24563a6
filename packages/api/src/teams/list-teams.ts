import { scoreVisibility, showsTeamScores } from "../leaderboard/score-visibility.ts";
import { frozenTeam, frozenView, laterSolves, withLater } from "../leaderboard/freeze.ts";
import type { Prisma } from "@flagship/db";
import { type Page, parseInput, ZTeamListInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { hasStaffPowers } from "../guards.ts";

export interface TeamListItem {
  id: number;
  name: string;
  /** How many members the team has. */
  members: number;
  leaderboard_points: number;
  is_visible: boolean;
}

/** Teams ordered by name (GET /team/?search=), paged; invisible ones only for staff. */
export async function listTeams(ctx: Context, input: unknown): Promise<Page<TeamListItem> & { limit: number; offset: number }> {
  const { limit, offset, search } = parseInput(ZTeamListInput, input);
  const staff = await hasStaffPowers(ctx);
  const scores = await scoreVisibility(ctx);
  const where: Prisma.TeamWhereInput = {
    ...(!staff && { isVisible: true }),
    ...(search && { name: { contains: search, mode: "insensitive" } }),
  };
  const [count, rows] = await Promise.all([
    ctx.db.team.count({ where }),
    ctx.db.team.findMany({
      where,
      select: { id: true, name: true, leaderboardPoints: true, isVisible: true, _count: { select: { members: true } } },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      skip: offset,
      take: limit,
    }),
  ]);
  // While frozen: points as they stood at the freeze, plus the reader's own team's later solves.
  const freeze = await frozenView(ctx);
  const own = freeze && freeze.teamId !== null && rows.some((t) => t.id === freeze.teamId) ? await laterSolves(ctx, freeze, { teamId: freeze.teamId }) : [];
  const points = (t: (typeof rows)[number]) => (freeze ? withLater(freeze, frozenTeam(freeze, t.id), t.id === freeze.teamId ? own : []).leaderboardPoints : t.leaderboardPoints);
  return {
    count,
    total: count,
    limit,
    offset,
    results: rows.map((t) => ({ id: t.id, name: t.name, members: t._count.members, leaderboard_points: showsTeamScores(scores, t.id) ? points(t) : 0, is_visible: t.isVisible })),
  };
}
