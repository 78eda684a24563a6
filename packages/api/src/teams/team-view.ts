import { Prisma } from "@flagship/db";
import { hasStaffPowers } from "../guards.ts";
import type { Context } from "../context.ts";
import { scoreVisibility, showsTeamScores } from "../leaderboard/score-visibility.ts";
import { frozenTeam, frozenView, frozenWorth, laterSolves, showsSolve, withLater } from "../leaderboard/freeze.ts";
import { type SolveView, solvesJsonSql, solveViewsFromJson } from "./solve-view.ts";
import { RELEASED_CHALLENGE_SQL } from "../challenges/access.ts";

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
interface TeamRow {
  id: number;
  name: string;
  description: string;
  owner_id: number | null;
  is_visible: boolean;
  discord: string;
  discordid: string;
  twitter: string;
  reddit: string;
  points: number;
  leaderboard_points: number;
  created_at: Date;
  leaderboard_group_id: number | null;
  password: string;
  members: string;
  incorrect: number;
  solves: string;
}

/**
 * Builds the team object of the contract in one statement (the team, its members, its solves and
 * its wrong-flag count), written as SQL since the query builder's five statements cost several
 * times the CPU on the own-team hot path. Non-staff readers of another team see only its visible
 * members and its solves of visible challenges; with the scores hidden, no progress at all. The
 * secret is added only when `withSecret` is set.
 */
export async function buildTeamView(ctx: Context, teamId: number, options: { withSecret: boolean; ownTeam: boolean }): Promise<TeamView | null> {
  const staff = await hasStaffPowers(ctx);
  const seeHidden = staff || options.ownTeam;
  const scores = showsTeamScores(await scoreVisibility(ctx), teamId) || options.ownTeam;
  // While the scoreboard is frozen: the team as it stood at the freeze, plus its own later solves
  // when it is the reader's own (freeze.ts).
  const frozen = await frozenView(ctx);
  // A member reading their team just joined may still carry no team in their actor.
  const freeze = frozen && options.ownTeam ? { ...frozen, teamId } : frozen;
  // Wrong flags after the freeze count only for the team's own members.
  const attemptsUntil = freeze && freeze.teamId !== teamId ? freeze.at : null;
  const [team] = await ctx.db.$queryRaw<TeamRow[]>`
    SELECT t.id, t.name::text AS name, t.description, t.owner_id, t.is_visible, t.discord, t.discordid, t.twitter, t.reddit,
           t.points, t.leaderboard_points, t.created_at, t.leaderboard_group_id, t.password,
           (SELECT COALESCE(json_agg(json_build_array(m.id, m.username::text) ORDER BY m.id), '[]'::json)::text
              FROM users m WHERE m.team_id = t.id AND (${seeHidden} OR m.is_visible)) AS members,
           CASE WHEN ${scores} THEN (SELECT count(*)::int FROM incorrect_attempts a
                                   WHERE a.team_id = t.id ${attemptsUntil ? Prisma.sql`AND a.timestamp <= ${attemptsUntil}` : Prisma.empty}) ELSE 0 END AS incorrect,
           ${solvesJsonSql(Prisma.sql`s.team_id = t.id AND ${scores} AND (${staff} OR ${RELEASED_CHALLENGE_SQL})`)} AS solves
      FROM teams t
     WHERE t.id = ${teamId}`;
  if (!team) return null;
  let solves = solveViewsFromJson(team.solves, freeze ? (s) => frozenWorth(freeze, s) : undefined);
  let totals = { points: team.points, leaderboardPoints: team.leaderboard_points };
  if (freeze) {
    solves = solves.filter((s) => showsSolve(freeze, s));
    totals = withLater(freeze, frozenTeam(freeze, teamId), teamId === freeze.teamId ? await laterSolves(ctx, freeze, { teamId }) : []);
  }
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    owner: team.owner_id,
    members: (JSON.parse(team.members) as [number, string][]).map(([id, username]) => ({ id, username })),
    solves,
    incorrect_solves: team.incorrect,
    points: scores ? totals.points : 0,
    leaderboard_points: scores ? totals.leaderboardPoints : 0,
    is_visible: team.is_visible,
    discord: team.discord,
    discordid: team.discordid,
    twitter: team.twitter,
    reddit: team.reddit,
    date_created: team.created_at.toISOString(),
    leaderboard_group: team.leaderboard_group_id,
    ...(options.withSecret && { password: team.password }),
  };
}
