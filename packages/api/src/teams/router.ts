import { z } from "zod";
import { authedProcedure, publicProcedure, router, staffProcedure } from "../trpc.ts";
import { createTeam } from "./create-team.ts";
import { deleteTeamAsStaff } from "./delete-team.ts";
import { getOwnTeam, getTeam, getTeamByName } from "./get-team.ts";
import { createLeaderboardGroup, deleteLeaderboardGroup, listLeaderboardGroups, updateLeaderboardGroup } from "./groups.ts";
import { joinTeam } from "./join-team.ts";
import { leaveTeam } from "./leave-team.ts";
import { listTeams } from "./list-teams.ts";
import { getTeamStats } from "./team-stats.ts";
import { updateOwnTeam, updateTeamAsStaff } from "./update-team.ts";

// Transport shapes only: the domain functions validate with the shared schemas themselves, so
// that checks run in the contract's order (e.g. join_disabled before a missing field).
const credentials = z.object({ name: z.string().max(1000).optional(), password: z.string().max(1000).optional() });
const groupRef = z.number().int().nullable().optional();
const groupFields = z.object({
  name: z.string().max(1000).optional(),
  description: z.string().max(10_000).optional(),
  is_self_assignable: z.boolean().optional(),
  has_own_leaderboard: z.boolean().optional(),
});
const teamPatch = z.object({
  name: z.string().max(1000).optional(),
  description: z.string().max(10_000).optional(),
  password: z.string().max(1000).optional(),
  owner: z.number().int().optional(),
});
const teamId = z.object({ id: z.number().int().positive() });

export const teamsRouter = router({
  create: authedProcedure.input(credentials.extend({ leaderboard_group: groupRef })).mutation(({ ctx, input }) => createTeam(ctx, input)),
  join: authedProcedure.input(credentials).mutation(({ ctx, input }) => joinTeam(ctx, input)),
  leave: authedProcedure.mutation(({ ctx }) => leaveTeam(ctx)),
  self: authedProcedure.query(({ ctx }) => getOwnTeam(ctx)),
  updateSelf: authedProcedure.input(teamPatch).mutation(({ ctx, input }) => updateOwnTeam(ctx, input)),
  get: publicProcedure.input(teamId).query(({ ctx, input }) => getTeam(ctx, input.id, { secretForStaff: true })),
  byName: publicProcedure.input(z.object({ name: z.string().min(1).max(100) })).query(({ ctx, input }) => getTeamByName(ctx, input.name)),
  stats: publicProcedure.input(teamId).query(({ ctx, input }) => getTeamStats(ctx, input.id)),
  list: publicProcedure
    .input(
      z.object({
        limit: z.number().int().optional(),
        offset: z.number().int().optional(),
        /** Offset of the page, as infinite queries pass it. */
        cursor: z.number().int().nullish(),
        search: z.string().max(100).optional(),
      }),
    )
    .query(({ ctx, input }) => listTeams(ctx, { ...input, offset: input.cursor ?? input.offset })),
  staffUpdate: staffProcedure
    .input(teamId.extend({ patch: teamPatch.extend({ is_visible: z.boolean().optional(), leaderboard_group: groupRef }) }))
    .mutation(({ ctx, input }) => updateTeamAsStaff(ctx, input.id, input.patch, { withSecret: true })),
  staffDelete: staffProcedure.input(teamId).mutation(({ ctx, input }) => deleteTeamAsStaff(ctx, input.id)),
  /** Leaderboard groups (divisions): anyone lists them, staff manage them. */
  groups: router({
    list: publicProcedure.query(({ ctx }) => listLeaderboardGroups(ctx, { limit: 1000 })),
    create: staffProcedure.input(groupFields).mutation(({ ctx, input }) => createLeaderboardGroup(ctx, input)),
    update: staffProcedure.input(teamId.extend({ patch: groupFields })).mutation(({ ctx, input }) => updateLeaderboardGroup(ctx, input.id, input.patch)),
    delete: staffProcedure.input(teamId).mutation(({ ctx, input }) => deleteLeaderboardGroup(ctx, input.id)),
  }),
});
