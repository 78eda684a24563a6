import type { Prisma } from "@flagship/db";
import { hasStaffPowers } from "../guards.ts";
import type { Context } from "../context.ts";
import { NO_PROGRESS, scoreVisibility, showsTeamScores } from "../leaderboard/score-visibility.ts";
import { SOLVE_VIEW_SELECT, type SolveView, solveVisibility, toSolveView } from "./solve-view.ts";

/** A team as anyone may read it. The secret is selected separately, only where it may be shown. */
export const TEAM_PUBLIC_SELECT = {
  id: true,
  name: true,
  description: true,
  ownerId: true,
  isVisible: true,
  discord: true,
  discordid: true,
  twitter: true,
  reddit: true,
  points: true,
  leaderboardPoints: true,
  createdAt: true,
  leaderboardGroupId: true,
} satisfies Prisma.TeamSelect;

export interface TeamMemberView {
  id: number;
  username: string;
}

export interface TeamView {
  id: number;
  name: string;
  description: string;
  owner: number | null;
  members: TeamMemberView[];
  solves: SolveView[];
  incorrect_solves: number;
  points: number;
  leaderboard_points: number;
  is_visible: boolean;
  discord: string;
  discordid: string;
  twitter: string;
  reddit: string;
  date_created: string;
  /** The leaderboard group (division) id, or null. */
  leaderboard_group: number | null;
  /** The team secret: only for its own members and staff. */
  password?: string;
}

/**
 * Builds the team object of the contract. Non-staff readers of another team see only its visible
 * members; the secret is added only when `withSecret` is set.
 */
export async function buildTeamView(ctx: Context, teamId: number, options: { withSecret: boolean; ownTeam: boolean }): Promise<TeamView | null> {
  const staff = await hasStaffPowers(ctx);
  const team = await ctx.db.team.findUnique({
    where: { id: teamId },
    select: { ...TEAM_PUBLIC_SELECT, ...(options.withSecret && { password: true }) },
  });
  if (!team) return null;
  const seeHidden = staff || options.ownTeam;
  const scores = showsTeamScores(await scoreVisibility(ctx), teamId) || options.ownTeam;
  const [members, solves, incorrect] = await Promise.all([
    ctx.db.user.findMany({
      where: { teamId, ...(!seeHidden && { isVisible: true }) },
      select: { id: true, username: true },
      orderBy: { id: "asc" },
    }),
    ctx.db.solve.findMany({
      where: { teamId, ...solveVisibility(staff), ...(!scores && NO_PROGRESS.solves) },
      select: SOLVE_VIEW_SELECT,
      orderBy: { timestamp: "desc" },
    }),
    ctx.db.incorrectAttempt.count({ where: { teamId, ...(!scores && NO_PROGRESS.attempts) } }),
  ]);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    owner: team.ownerId,
    members,
    solves: solves.map(toSolveView),
    incorrect_solves: incorrect,
    points: scores ? team.points : 0,
    leaderboard_points: scores ? team.leaderboardPoints : 0,
    is_visible: team.isVisible,
    discord: team.discord,
    discordid: team.discordid,
    twitter: team.twitter,
    reddit: team.reddit,
    date_created: team.createdAt.toISOString(),
    leaderboard_group: team.leaderboardGroupId,
    ...("password" in team && typeof team.password === "string" && { password: team.password }),
  };
}
