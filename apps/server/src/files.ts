import { MAX_UPLOAD_BYTES, openStoredFile, requireStaff, storeUpload } from "@flagship/api";
import type { Services } from "@flagship/api";
import { AppError } from "@flagship/shared";
import type { FastifyInstance } from "fastify";
import { contextFor } from "./rest/adapter.ts";
import { fail, failWith, ok } from "./rest/envelope.ts";

/**
 * Challenge file storage: staff upload the raw bytes (`POST /files/upload?name=...`, any content
 * type, streamed to disk), players download them with a content-disposition attachment.
 * `GET /files/upload` tells staff what an upload may be (`{max_bytes}`), so a tool can refuse an
 * oversized file before it changes anything rather than halfway through its work.
 */
export async function registerFileRoutes(app: FastifyInstance, services: Services, dataDir: string): Promise<void> {
  await app.register(async (scope) => {
    // The body is not parsed: the handler streams request.raw to storage with its own size limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));

    scope.get("/files/upload", async (request, reply) => {
      try {
        await requireStaff(await contextFor(services, request));
        return ok(reply, { max_bytes: MAX_UPLOAD_BYTES });
      } catch (error) {
        if (error instanceof AppError) return failWith(reply, error);
        request.log.error({ err: error }, "upload limits failed");
        return fail(reply, "server_error");
      }
    });

    scope.post("/files/upload", async (request, reply) => {
      try {
        const ctx = await requireStaff(await contextFor(services, request));
        const name = (request.query as { name?: unknown }).name;
        if (typeof name !== "string" || name.trim() === "") throw AppError.field("required", "name", "This field is required");
        const stored = await storeUpload(ctx, { dataDir, name, body: request.raw });
        return ok(reply, stored, { status: 201 });
      } catch (error) {
        if (error instanceof AppError) return failWith(reply, error);
        request.log.error({ err: error }, "upload failed");
        return fail(reply, "server_error");
      }
    });

    scope.get("/files/:key/:name", async (request, reply) => {
      const { key, name } = request.params as { key: string; name: string };
      const file = await openStoredFile(dataDir, key, name);
      if (!file) return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-length", String(file.size))
        .header("content-disposition", `attachment; filename="${file.name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, max-age=3600")
        .send(file.stream());
    });
  });
}
