import { z } from "zod";
import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { giveAward, listAwards, removeAward } from "./awards.ts";
import { challengeStats } from "./challenge-stats.ts";
import { markSolved } from "./mark-solved.ts";
import { exportSubmissionsCsv, listSubmissions } from "./submissions.ts";
import { testFlag } from "./test-flag.ts";

// Transport shapes only: the domain functions validate with the shared schemas themselves, and
// their field errors reach the forms.
const ref = z.number().int().optional();
const filter = z.object({ team: ref, user: ref, challenge: ref, correct: z.boolean().optional() });

/** Live moderation for staff: the submissions log, awards, solves made by hand, flags tried. */
export const moderationRouter = router({
  /** The submissions log, newest first; cursor is the previous page's next_cursor. */
  submissions: staffProcedure
    .input(filter.extend({ limit: z.number().int().optional(), cursor: z.string().max(64).nullish() }))
    .query(({ ctx, input }) => listSubmissions(ctx, input)),
  submissionsCsv: staffProcedure.input(filter).query(({ ctx, input }) => exportSubmissionsCsv(ctx, input)),
  giveAward: staffProcedure
    .input(z.object({ team: ref, user: ref, points: z.number().optional(), reason: z.string().max(1000).optional() }))
    .mutation(({ ctx, input }) => giveAward(ctx, input)),
  removeAward: staffProcedure.input(z.object({ id: z.number().int() })).mutation(({ ctx, input }) => removeAward(ctx, input)),
  /** A team's or player's awards, as their page shows them (staff see removed ones too). */
  awards: publicProcedure.input(z.object({ team: ref, user: ref })).query(({ ctx, input }) => listAwards(ctx, input)),
  markSolved: staffProcedure
    .input(z.object({ team: ref, challenge: ref, user: ref, first_blood: z.boolean().optional() }))
    .mutation(({ ctx, input }) => markSolved(ctx, input)),
  testFlag: staffProcedure
    .input(z.object({ challenge: ref, flag: z.union([z.string().max(10_000), z.array(z.number())]).optional(), team: ref }))
    .mutation(({ ctx, input }) => testFlag(ctx, input)),
  challengeStats: staffProcedure.query(({ ctx }) => challengeStats(ctx)),
});
