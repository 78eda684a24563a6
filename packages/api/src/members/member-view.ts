import type { Prisma } from "@flagship/db";

/** A member as anyone may read them: no email, password hash, 2FA secret or tokens. */
export const MEMBER_PUBLIC_SELECT = {
  id: true,
  username: true,
  isStaff: true,
  isVerified: true,
  stateActor: true,
  bio: true,
  discord: true,
  discordid: true,
  twitter: true,
  reddit: true,
  points: true,
  leaderboardPoints: true,
  dateJoined: true,
  isVisible: true,
  team: { select: { id: true, name: true, isVisible: true } },
} satisfies Prisma.UserSelect;

/** Added for staff readers only. */
export const MEMBER_STAFF_SELECT = {
  email: true,
  emailVerified: true,
  isActive: true,
} satisfies Prisma.UserSelect;

type PublicRow = Prisma.UserGetPayload<{ select: typeof MEMBER_PUBLIC_SELECT }>;
type StaffRow = Partial<Prisma.UserGetPayload<{ select: typeof MEMBER_STAFF_SELECT }>>;

export interface MemberSummary {
  id: number;
  username: string;
  is_staff: boolean;
  is_verified: boolean;
  state_actor: boolean;
  bio: string;
  discord: string;
  discordid: string;
  twitter: string;
  reddit: string;
  team: number | null;
  team_name: string | null;
  points: number;
  leaderboard_points: number;
  date_joined: string;
  /** Staff only. */
  email?: string;
  email_verified?: boolean;
  is_active?: boolean;
  is_visible?: boolean;
}

/**
 * The public member object; staff also get email and account flags. A team that is invisible is
 * not named to non-staff, since invisible teams are hidden from them everywhere.
 */
export function toMemberSummary(row: PublicRow & StaffRow, staff: boolean, self: boolean, scores = true): MemberSummary {
  const showTeam = row.team !== null && (staff || self || row.team.isVisible);
  return {
    id: row.id,
    username: row.username,
    is_staff: row.isStaff,
    is_verified: row.isVerified,
    state_actor: row.stateActor,
    bio: row.bio,
    discord: row.discord,
    discordid: row.discordid,
    twitter: row.twitter,
    reddit: row.reddit,
    team: showTeam ? row.team!.id : null,
    team_name: showTeam ? row.team!.name : null,
    points: scores ? row.points : 0,
    leaderboard_points: scores ? row.leaderboardPoints : 0,
    date_joined: row.dateJoined.toISOString(),
    ...(staff && {
      email: row.email,
      email_verified: row.emailVerified,
      is_active: row.isActive,
      is_visible: row.isVisible,
    }),
  };
}
