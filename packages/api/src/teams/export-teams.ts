import type { Page } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";
import { listTeams } from "./list-teams.ts";
import { SOLVE_VIEW_SELECT, type SolveView, toSolveView } from "./solve-view.ts";
import { TEAM_PUBLIC_SELECT, type TeamView } from "./team-view.ts";

/**
 * A page of the team list as staff export it (GET /team/ with `X-Exporting: true`): each team's
 * staff object with its owner, password, members and solves, as upstream answers RACTF's CSV
 * export. A few statements a page, however many teams it holds.
 */
export async function exportTeams(ctx: StaffContext, input: unknown): Promise<Page<TeamView> & { limit: number; offset: number }> {
  const page = await listTeams(ctx, input);
  const ids = page.results.map((t) => t.id);
  const [rows, solves] = await Promise.all([
    ctx.db.team.findMany({
      where: { id: { in: ids } },
      select: { ...TEAM_PUBLIC_SELECT, password: true, members: { select: { id: true, username: true }, orderBy: { id: "asc" } }, _count: { select: { attempts: true } } },
    }),
    ctx.db.solve.findMany({ where: { teamId: { in: ids } }, select: SOLVE_VIEW_SELECT, orderBy: [{ timestamp: "desc" }, { id: "desc" }] }),
  ]);
  const solvesOf = new Map<number, SolveView[]>();
  for (const s of solves) (solvesOf.get(s.teamId) ?? solvesOf.set(s.teamId, []).get(s.teamId)!).push(toSolveView(s));
  const byId = new Map(rows.map((t) => [t.id, t]));
  // In the list's order; a team deleted between the two reads is left out.
  const results = ids.flatMap((id) => {
    const t = byId.get(id);
    if (!t) return [];
    return [
      {
        id: t.id,
        name: t.name,
        description: t.description,
        owner: t.ownerId,
        members: t.members,
        solves: solvesOf.get(t.id) ?? [],
        incorrect_solves: t._count.attempts,
        points: t.points,
        leaderboard_points: t.leaderboardPoints,
        is_visible: t.isVisible,
        discord: t.discord,
        discordid: t.discordid,
        twitter: t.twitter,
        reddit: t.reddit,
        date_created: t.createdAt.toISOString(),
        leaderboard_group: t.leaderboardGroupId,
        password: t.password,
      } satisfies TeamView,
    ];
  });
  return { ...page, results };
}
