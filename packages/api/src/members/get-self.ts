import { Prisma } from "@flagship/db";
import { AppError } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";
import { type SolveView, solveViewsFromJson, solvesJsonSql } from "../teams/solve-view.ts";
import { frozenUser, frozenView, frozenWorth, laterSolves, showsSolve, viewMode, withLater } from "../leaderboard/freeze.ts";
import { ownViews } from "./own-views.ts";

export interface SelfView {
  id: number;
  username: string;
  email: string;
  is_staff: boolean;
  is_verified: boolean;
  email_verified: boolean;
  state_actor: boolean;
  bio: string;
  discord: string;
  discordid: string;
  twitter: string;
  reddit: string;
  team: { id: number; name: string; owner: number | null; description: string; is_visible: boolean } | null;
  team_name: string | null;
  has_2fa: boolean;
  points: number;
  leaderboard_points: number;
  date_joined: string;
  solves: SolveView[];
  incorrect_solves: number;
}

/** GET /member/self/, from the maintained views (see own-views.ts). */
export async function getSelf(ctx: AuthedContext): Promise<SelfView> {
  return ownViews(ctx).self(ctx.actor.id, ctx.actor.teamId, () => loadSelf(ctx), await viewMode(ctx));
}

/** The statement's row: the view's own fields as they are, and what the view derives. */
type SelfRow = Omit<SelfView, "team" | "has_2fa" | "date_joined" | "solves" | "incorrect_solves"> & {
  totp_verified: boolean;
  date_joined: Date;
  team_id: number | null;
  team_owner: number | null;
  team_description: string | null;
  team_is_visible: boolean | null;
  incorrect: number;
  solves: string;
};

/**
 * The own account read fresh from the database, never a hash, token or secret: one statement
 * whatever the event's size (the account, its team, its solves and its wrong-flag count), written
 * as SQL since the query builder's five statements cost several times the CPU on this hot path.
 */
export async function loadSelf(ctx: AuthedContext): Promise<SelfView> {
  const [user] = await ctx.db.$queryRaw<SelfRow[]>`
    SELECT u.id, u.username::text AS username, u.email::text AS email, u.is_staff, u.is_verified, u.email_verified, u.state_actor,
           u.bio, u.discord, u.discordid, u.twitter, u.reddit, u.totp_verified, u.points, u.leaderboard_points, u.date_joined,
           t.id AS team_id, t.name::text AS team_name, t.owner_id AS team_owner, t.description AS team_description, t.is_visible AS team_is_visible,
           (SELECT count(*)::int FROM incorrect_attempts a WHERE a.user_id = u.id) AS incorrect,
           ${solvesJsonSql(Prisma.sql`s.user_id = u.id`)} AS solves
      FROM users u LEFT JOIN teams t ON t.id = u.team_id
     WHERE u.id = ${ctx.actor.id}`;
  if (!user) throw new AppError("not_found");
  // While the scoreboard is frozen: the account as it stood at the freeze, plus its own later
  // solves for its team, each worth what the challenge was worth at the freeze (freeze.ts).
  const frozen = await frozenView(ctx);
  const freeze = frozen && user.team_id !== null ? { ...frozen, teamId: user.team_id } : frozen;
  let solves = solveViewsFromJson(user.solves, freeze ? (s) => frozenWorth(freeze, s) : undefined);
  let totals = { points: user.points, leaderboardPoints: user.leaderboard_points };
  if (freeze) {
    solves = solves.filter((s) => showsSolve(freeze, s));
    const later = user.team_id !== null ? await laterSolves(ctx, freeze, { userId: user.id, teamId: user.team_id }) : [];
    totals = withLater(freeze, frozenUser(freeze, user.id), later);
  }
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    is_staff: user.is_staff,
    is_verified: user.is_verified,
    email_verified: user.email_verified,
    state_actor: user.state_actor,
    bio: user.bio,
    discord: user.discord,
    discordid: user.discordid,
    twitter: user.twitter,
    reddit: user.reddit,
    team:
      user.team_id !== null
        ? { id: user.team_id, name: user.team_name ?? "", owner: user.team_owner, description: user.team_description ?? "", is_visible: user.team_is_visible === true }
        : null,
    team_name: user.team_name,
    has_2fa: user.totp_verified,
    points: totals.points,
    leaderboard_points: totals.leaderboardPoints,
    date_joined: user.date_joined.toISOString(),
    solves,
    incorrect_solves: user.incorrect,
  };
}
