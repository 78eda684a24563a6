import {
  checkFlag,
  createCategory,
  createChallenge,
  createFile,
  createUploadedFile,
  deleteCategory,
  deleteChallenge,
  deleteFile,
  getChallenge,
  getTeamFlag,
  giveFeedback,
  listCategoriesJson,
  MAX_UPLOAD_BYTES,
  requireStaff,
  submitFlag,
  updateCategory,
  updateChallenge,
  updateFile,
  voteChallenge,
} from "@flagship/api";
import { AppError } from "@flagship/shared";
import { envelopeOf, type RestRoutes } from "../adapter.ts";
import { readUploadForm } from "../upload-form.ts";

/** A path id: digits only, anything else is simply not found. */
export function pathId(value: string | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value)) throw new AppError("not_found");
  return Number(value);
}

/** The forms RACTF's file editor sends: a few fields and at most one file. */
const FILE_FORM = { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 16, fieldSize: 64 * 1024 };

export function challengeRoutes(rest: RestRoutes, options: { dataDir: string }): void {
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
  rest.route(
    "/challenges/files/",
    {
      POST: async ({ ctx, body, request }) => {
        // Staff only, checked before a byte of the form is read or stored.
        const staff = await requireStaff(ctx);
        if (!request.isMultipart()) return { d: await createFile(staff, body), status: 201 };
        // RACTF's client always sends a form: its Upload tab the file as `upload`, its Link tab
        // `name`, `url` and `size`; both with `challenge`.
        const form = await readUploadForm(request, { upload: { dataDir: options.dataDir, maxBytes: MAX_UPLOAD_BYTES } });
        const d = form.upload ? await createUploadedFile(staff, options.dataDir, form.upload, form.fields) : await createFile(staff, form.fields);
        return { d, status: 201 };
      },
    },
    // The parser cuts a file one byte past the limit, so readUploadForm's own limit refuses it.
    { multipart: FILE_FORM },
  );
  rest.route(
    "/challenges/files/:id/",
    {
      PATCH: async ({ ctx, params, body, request }) => {
        const staff = await requireStaff(ctx);
        // RACTF's file editor sends its name, url and size as a form too.
        const fields = request.isMultipart() ? (await readUploadForm(request)).fields : body;
        return { d: await updateFile(staff, pathId(params.id), fields) };
      },
      DELETE: async ({ ctx, params }) => {
        await deleteFile(await requireStaff(ctx), pathId(params.id));
        return { d: "" };
      },
    },
    { multipart: FILE_FORM },
  );
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
