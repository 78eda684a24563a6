import { z } from "zod";
import { authedProcedure, router, staffProcedure } from "../trpc.ts";
import { checkFlag } from "./check-flag.ts";
import { giveFeedback } from "./give-feedback.ts";
import { getChallenge, listCategories } from "./list-categories.ts";
import { createCategory, deleteCategory, updateCategory } from "./manage-categories.ts";
import { createChallenge, deleteChallenge, updateChallenge } from "./manage-challenges.ts";
import { createFile, deleteFile, updateFile } from "./manage-files.ts";
import { getTeamFlag } from "./flag-sharing.ts";
import { submitFlag } from "./submit-flag.ts";
import { voteChallenge } from "./vote-challenge.ts";

// Transport shapes only: the domain functions validate with the shared schemas in the
// contract's order (e.g. flag_submission_disabled before a missing field).
const body = z.record(z.string(), z.unknown());
const byId = z.object({ id: z.number().int() });
const patch = byId.extend({ patch: body });

export const challengesRouter = router({
  categories: authedProcedure.query(({ ctx }) => listCategories(ctx)),
  get: authedProcedure.input(byId).query(({ ctx, input }) => getChallenge(ctx, input.id)),
  submitFlag: authedProcedure.input(body).mutation(({ ctx, input }) => submitFlag(ctx, input)),
  checkFlag: authedProcedure.input(body).mutation(({ ctx, input }) => checkFlag(ctx, input)),
  vote: authedProcedure.input(body).mutation(({ ctx, input }) => voteChallenge(ctx, input)),
  feedback: authedProcedure.input(body).mutation(({ ctx, input }) => giveFeedback(ctx, input)),
  create: staffProcedure.input(body).mutation(({ ctx, input }) => createChallenge(ctx, input)),
  update: staffProcedure.input(patch).mutation(({ ctx, input }) => updateChallenge(ctx, input.id, input.patch)),
  delete: staffProcedure.input(byId).mutation(({ ctx, input }) => deleteChallenge(ctx, input.id)),
  createCategory: staffProcedure.input(body).mutation(({ ctx, input }) => createCategory(ctx, input)),
  updateCategory: staffProcedure.input(patch).mutation(({ ctx, input }) => updateCategory(ctx, input.id, input.patch)),
  deleteCategory: staffProcedure.input(byId).mutation(({ ctx, input }) => deleteCategory(ctx, input.id)),
  createFile: staffProcedure.input(body).mutation(({ ctx, input }) => createFile(ctx, input)),
  updateFile: staffProcedure.input(patch).mutation(({ ctx, input }) => updateFile(ctx, input.id, input.patch)),
  deleteFile: staffProcedure.input(byId).mutation(({ ctx, input }) => deleteFile(ctx, input.id)),
  /** A team's own flag for a dynamic challenge (staff). */
  teamFlag: staffProcedure.input(z.object({ challenge: z.number().int(), team: z.number().int() })).query(({ ctx, input }) => getTeamFlag(ctx, input)),
});
