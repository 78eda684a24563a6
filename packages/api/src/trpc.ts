import { AppError, ERRORS, errorMessage, refuseUnstorableText } from "@flagship/shared";
import { isDatabaseUnavailable } from "@flagship/db";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Context } from "./context.ts";
import { requireAuth, requireStaff, requireTeam } from "./guards.ts";
import { transformer } from "./transformer.ts";

/** Domain errors become TRPCErrors carrying the app code; the formatter exposes code and details. */
export function toTrpcError(error: AppError): TRPCError {
  return new TRPCError({ code: ERRORS[error.code].trpc, message: error.message, cause: error });
}

const t = initTRPC.context<Context>().create({
  transformer,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const app = cause instanceof AppError ? cause : null;
    let appCode: string = app?.code ?? (error.code === "INTERNAL_SERVER_ERROR" ? "server_error" : "bad_request");
    let details: unknown = app?.details ?? "";
    let message = app ? app.message : shape.message;
    if (!app && cause instanceof ZodError) {
      appCode = "invalid";
      details = Object.fromEntries(cause.issues.map((i) => [i.path.join(".") || "non_field_errors", [i.message]]));
      message = cause.issues[0]?.message ?? errorMessage("invalid");
    }
    if (!app && error.code === "INTERNAL_SERVER_ERROR") message = errorMessage("server_error");
    return { ...shape, message, data: { ...shape.data, appCode, details, stack: undefined } };
  },
});

/** Converts AppErrors thrown by domain code into TRPCErrors once, for every procedure. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const app = result.error.cause;
    (result as { error: TRPCError }).error = toTrpcError(app);
  } else if (!result.ok && isDatabaseUnavailable(result.error.cause)) {
    (result as { error: TRPCError }).error = toTrpcError(new AppError("service_unavailable"));
  }
  return result;
});

/** Text PostgreSQL cannot store (NUL, a lone surrogate) is 400 invalid on its field, before any work. */
const storableText = t.middleware(async ({ getRawInput, next }) => {
  refuseUnstorableText(await getRawInput());
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const publicProcedure = t.procedure.use(appErrors).use(storableText);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: requireAuth(ctx) }));

export const teamProcedure = authedProcedure.use(({ ctx, next }) => next({ ctx: requireTeam(ctx) }));

export const staffProcedure = authedProcedure.use(async ({ ctx, next }) => next({ ctx: await requireStaff(ctx) }));

