import type { Db, Prisma } from "@flagship/db";
import type { AuthedContext } from "../guards.ts";
import { SOLVE_VIEW_SELECT, type SolveView, toSolveView } from "../teams/solve-view.ts";
import { ownViews } from "./own-views.ts";

/** The own account (GET /member/self/): what only its owner sees, never a hash, token or secret. */
const SELF_SELECT = {
  id: true,
  username: true,
  email: true,
  isStaff: true,
  isVerified: true,
  stateActor: true,
  bio: true,
  discord: true,
  discordid: true,
  twitter: true,
  reddit: true,
  totpVerified: true,
  points: true,
  leaderboardPoints: true,
  dateJoined: true,
  emailVerified: true,
  team: { select: { id: true, name: true, ownerId: true, description: true, isVisible: true } },
} satisfies Prisma.UserSelect;

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
export function getSelf(ctx: AuthedContext): Promise<SelfView> {
  return ownViews(ctx).self(ctx.actor.id, ctx.actor.teamId, () => loadSelf(ctx), () => countWrongFlags(ctx.db, "user_id", ctx.actor.id));
}

/**
 * The wrong flags of a user or a team, for an own view's recount after a wrong flag: one statement
 * (an index-only count), written as SQL since the query builder cost twice its CPU on this path.
 */
export async function countWrongFlags(db: Db, column: "user_id" | "team_id", id: number): Promise<number> {
  const rows =
    column === "user_id"
      ? await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM incorrect_attempts WHERE user_id = ${id}`
      : await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM incorrect_attempts WHERE team_id = ${id}`;
  return rows[0]?.n ?? 0;
}

/** The own account read fresh from the database: three queries whatever the event's size. */
export async function loadSelf(ctx: AuthedContext): Promise<SelfView> {
  const [user, solves, incorrect] = await Promise.all([
    ctx.db.user.findUniqueOrThrow({ where: { id: ctx.actor.id }, select: SELF_SELECT }),
    ctx.db.solve.findMany({ where: { userId: ctx.actor.id }, select: SOLVE_VIEW_SELECT, orderBy: { timestamp: "desc" } }),
    ctx.db.incorrectAttempt.count({ where: { userId: ctx.actor.id } }),
  ]);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    is_staff: user.isStaff,
    is_verified: user.isVerified,
    email_verified: user.emailVerified,
    state_actor: user.stateActor,
    bio: user.bio,
    discord: user.discord,
    discordid: user.discordid,
    twitter: user.twitter,
    reddit: user.reddit,
    team: user.team
      ? { id: user.team.id, name: user.team.name, owner: user.team.ownerId, description: user.team.description, is_visible: user.team.isVisible }
      : null,
    team_name: user.team?.name ?? null,
    has_2fa: user.totpVerified,
    points: user.points,
    leaderboard_points: user.leaderboardPoints,
    date_joined: user.dateJoined.toISOString(),
    solves: solves.map(toSolveView),
    incorrect_solves: incorrect,
  };
}
