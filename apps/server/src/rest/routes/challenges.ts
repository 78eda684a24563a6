import {
  checkFlag,
  createCategory,
  createChallenge,
  createFile,
  deleteCategory,
  deleteChallenge,
  deleteFile,
  getChallenge,
  getTeamFlag,
  giveFeedback,
  listCategoriesJson,
  requireStaff,
  submitFlag,
  updateCategory,
  updateChallenge,
  updateFile,
  voteChallenge,
} from "@flagship/api";
import { AppError } from "@flagship/shared";
import { envelopeOf, type RestRoutes } from "../adapter.ts";

/** A path id: digits only, anything else is simply not found. */
export function pathId(value: string | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value)) throw new AppError("not_found");
  return Number(value);
}

export function challengeRoutes(rest: RestRoutes): void {
  rest.route("/challenges/categories/", {
    GET: async ({ ctx }) => envelopeOf(await listCategoriesJson(ctx)),
    POST: async ({ ctx, body }) => ({ d: await createCategory(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/challenges/categories/:id/", {
    PATCH: async ({ ctx, params, body }) => ({ d: await updateCategory(await requireStaff(ctx), pathId(params.id), body) }),
    DELETE: async ({ ctx, params }) => {
      await deleteCategory(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });
  rest.route("/challenges/", {
    POST: async ({ ctx, body }) => ({ d: await createChallenge(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/challenges/submit_flag/", { POST: async ({ ctx, body }) => submitFlag(ctx, body) });
  rest.route("/challenges/check_flag/", { POST: async ({ ctx, body }) => checkFlag(ctx, body) });
  rest.route("/challenges/vote/", { POST: async ({ ctx, body }) => ({ d: await voteChallenge(ctx, body) }) });
  rest.route("/challenges/feedback/", { POST: async ({ ctx, body }) => ({ d: await giveFeedback(ctx, body) }) });
  rest.route("/challenges/files/", {
    POST: async ({ ctx, body }) => ({ d: await createFile(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/challenges/files/:id/", {
    PATCH: async ({ ctx, params, body }) => ({ d: await updateFile(await requireStaff(ctx), pathId(params.id), body) }),
    DELETE: async ({ ctx, params }) => {
      await deleteFile(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });
  rest.route("/challenges/:id/team_flag/:team/", {
    GET: async ({ ctx, params }) => ({ d: await getTeamFlag(await requireStaff(ctx), { challenge: pathId(params.id), team: pathId(params.team) }) }),
  });
  rest.route("/challenges/:id/", {
    GET: async ({ ctx, params }) => ({ d: await getChallenge(ctx, pathId(params.id)) }),
    PATCH: async ({ ctx, params, body }) => ({ d: await updateChallenge(await requireStaff(ctx), pathId(params.id), body) }),
    DELETE: async ({ ctx, params }) => {
      await deleteChallenge(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });
}
