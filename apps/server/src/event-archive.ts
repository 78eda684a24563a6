import { exportEventArchive, importCtfd, importEventArchive, requireStaff } from "@flagship/api";
import type { Services } from "@flagship/api";
import { AppError } from "@flagship/shared";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { contextFor } from "./rest/adapter.ts";
import { fail, ok } from "./rest/envelope.ts";

/**
 * Whole-event archives (the importEntire experiment), staff only: `GET /port/event` downloads the
 * event as a .tar.gz, `POST /port/event` imports one (the raw bytes, streamed) into an empty event.
 * `POST /port/ctfd` reads a CTFd export (.zip): with `?dry_run=1` it answers the report and
 * changes nothing (200); without, it imports (201). `?players=0` leaves users, teams and solves out.
 * Failures answer the envelope with the reason in `d.message` (and field details in `d.details`).
 */
export async function registerEventArchiveRoutes(app: FastifyInstance, services: Services, dataDir: string): Promise<void> {
  function failure(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
    if (!(error instanceof AppError)) {
      request.log.error({ err: error }, "archive import or export failed");
      return fail(reply, "server_error", { message: "Something went wrong with the archive." });
    }
    return fail(reply, error.code, { message: error.message, ...(error.details !== "" && { details: error.details }) });
  }

  await app.register(async (scope) => {
    // The body is not parsed: the import streams request.raw through its own limits.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));

    scope.get("/port/event", async (request, reply) => {
      try {
        const ctx = await requireStaff(await contextFor(services, request));
        const archive = await exportEventArchive(ctx, { dataDir });
        return reply
          .header("content-type", "application/gzip")
          .header("content-disposition", `attachment; filename="${archive.filename}"`)
          .header("cache-control", "no-store")
          .header("x-content-type-options", "nosniff")
          .send(archive.stream);
      } catch (error) {
        return failure(request, reply, error);
      }
    });

    scope.post("/port/event", async (request, reply) => {
      try {
        const ctx = await requireStaff(await contextFor(services, request));
        return ok(reply, await importEventArchive(ctx, { dataDir, body: request.raw }), { status: 201 });
      } catch (error) {
        // Whatever the client still sends is not needed.
        request.raw.resume();
        return failure(request, reply, error);
      }
    });

    scope.post("/port/ctfd", async (request, reply) => {
      try {
        const ctx = await requireStaff(await contextFor(services, request));
        const query = request.query as Record<string, unknown>;
        // Only 0/1/true/false: anything else is refused, never read as "no" (a mistyped dry run must not import).
        const yes = (key: string, fallback: boolean) => {
          const value = query[key];
          if (value === undefined) return fallback;
          const word = typeof value === "string" ? value.toLowerCase() : "";
          if (word === "1" || word === "true") return true;
          if (word === "0" || word === "false") return false;
          throw new AppError("bad_request", { message: `${key} must be 1, 0, true or false.`, details: { [key]: ["Use 1, 0, true or false."] } });
        };
        const dryRun = yes("dry_run", false);
        const players = yes("players", true);
        const result = await importCtfd(ctx, { dataDir, body: request.raw, dryRun, players });
        return ok(reply, result, { status: dryRun ? 200 : 201 });
      } catch (error) {
        request.raw.resume();
        return failure(request, reply, error);
      }
    });
  });
}
