import { z } from "zod";
import { LIMITS } from "./constants.ts";
import { ZPageInput } from "./pagination.ts";

/** Longest team description we keep; the specs give no figure, so it matches the bio limit. */
export const TEAM_DESCRIPTION_MAX = 400;
/** Upper bound on a team secret, only so a request cannot store megabytes. */
export const TEAM_SECRET_MAX = 128;

const teamName = z.string().trim().min(1).max(LIMITS.teamName);
const teamSecret = z.string().min(LIMITS.teamSecretMin).max(TEAM_SECRET_MAX);

/** A leaderboard group id, or null for none. */
const groupRef = z.number().int().positive().max(2_147_483_647).nullable();

export const ZCreateTeamInput = z.object({ name: teamName, password: teamSecret, leaderboard_group: groupRef.optional() });
export type CreateTeamInput = z.infer<typeof ZCreateTeamInput>;

/** Joining only needs the fields present; a wrong name or secret is answered by the lookup. */
export const ZJoinTeamInput = z.object({
  name: z.string().trim().min(1).max(1000),
  password: z.string().min(1).max(1000),
});
export type JoinTeamInput = z.infer<typeof ZJoinTeamInput>;

/** What a team owner may change (PATCH /team/self/). */
export const ZUpdateTeamInput = z.object({
  name: teamName.optional(),
  description: z.string().max(TEAM_DESCRIPTION_MAX).optional(),
  password: teamSecret.optional(),
  owner: z.number().int().positive().optional(),
});
export type UpdateTeamInput = z.infer<typeof ZUpdateTeamInput>;

/** What staff may change on any team (PATCH /team/{id}/). */
export const ZStaffUpdateTeamInput = ZUpdateTeamInput.extend({
  // Staff never see a team's secret in RACTF's admin, whose form sends the empty field it shows:
  // an empty password there means "unchanged".
  password: z.preprocess((value) => (value === "" ? undefined : value), teamSecret.optional()),
  is_visible: z.boolean().optional(),
  leaderboard_group: groupRef.optional(),
});
export type StaffUpdateTeamInput = z.infer<typeof ZStaffUpdateTeamInput>;

/** A paged list with an optional search term (GET /team/?search=). */
export const ZTeamListInput = ZPageInput.extend({
  search: z.string().trim().max(100).optional().catch(undefined),
});
export type TeamListInput = z.infer<typeof ZTeamListInput>;


/** Limits of a leaderboard group (division). */
export const GROUP_NAME_MAX = 64;
export const GROUP_DESCRIPTION_MAX = 400;

/** A leaderboard group as staff write it (POST /team/groups/). */
export const ZLeaderboardGroupInput = z.object({
  name: z.string().trim().min(1).max(GROUP_NAME_MAX),
  description: z.string().trim().max(GROUP_DESCRIPTION_MAX).optional(),
  is_self_assignable: z.boolean().optional(),
  has_own_leaderboard: z.boolean().optional(),
});
export type LeaderboardGroupInput = z.infer<typeof ZLeaderboardGroupInput>;
export const ZLeaderboardGroupPatch = ZLeaderboardGroupInput.partial();

/** A board filter: `?group={id}` narrows the team board, the graph and the CTFtime feed. */
export const ZGroupFilter = z.object({ group: z.number().int().positive().max(2_147_483_647).optional() });
