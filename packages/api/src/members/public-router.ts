import { z } from "zod";
import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { listSignInFailures } from "../auth/sign-in-failures.ts";
import { deleteMemberAsStaff } from "./delete-account.ts";
import { getMember, getMemberByName } from "./get-member.ts";
import { listMembers } from "./list-members.ts";
import { getMemberStats } from "./member-stats.ts";
import { updateMemberAsStaff } from "./update-member-as-staff.ts";

const memberRef = z.object({ id: z.union([z.literal("me"), z.number().int().positive()]) });

/** Everyone's members: the user list, profiles and their charts, and staff edits. */
export const usersRouter = router({
  list: publicProcedure
    .input(
      z.object({
        limit: z.number().int().optional(),
        offset: z.number().int().optional(),
        /** Offset of the page, as infinite queries pass it. */
        cursor: z.number().int().nullish(),
        search: z.string().max(100).optional(),
        ordering: z.string().max(40).optional(),
        is_staff: z.boolean().optional(),
        is_active: z.boolean().optional(),
        is_visible: z.boolean().optional(),
        email_verified: z.boolean().optional(),
        has_team: z.boolean().optional(),
      }),
    )
    .query(({ ctx, input }) => listMembers(ctx, { ...input, offset: input.cursor ?? input.offset })),
  get: publicProcedure.input(memberRef).query(({ ctx, input }) => getMember(ctx, input.id)),
  byName: publicProcedure.input(z.object({ username: z.string().min(1).max(100) })).query(({ ctx, input }) => getMemberByName(ctx, input.username)),
  stats: publicProcedure.input(memberRef).query(({ ctx, input }) => getMemberStats(ctx, input.id)),
  staffUpdate: staffProcedure
    .input(z.object({ id: z.number().int().positive(), patch: z.record(z.string(), z.unknown()) }))
    .mutation(({ ctx, input }) => updateMemberAsStaff(ctx, input.id, input.patch)),
  /** Wrong passwords and 2FA codes recorded for these accounts (staff only: players never see them). */
  signInFailures: staffProcedure
    .input(z.object({ ids: z.array(z.number().int().positive()).max(1000) }))
    .query(({ ctx, input }) => listSignInFailures(ctx, input.ids)),
  staffDelete: staffProcedure.input(z.object({ id: z.number().int().positive() })).mutation(({ ctx, input }) => deleteMemberAsStaff(ctx, input.id)),
});
