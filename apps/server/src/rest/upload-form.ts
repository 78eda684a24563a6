import { finished } from "node:stream/promises";
import { discardUpload, type WrittenUpload, writeUpload } from "@flagship/api";
import { AppError, refuseUnstorableText } from "@flagship/shared";
import type { FastifyRequest } from "fastify";

/** A form with a file: its other fields, and the file sent as `upload`, already in storage. */
export interface UploadForm {
  fields: Record<string, unknown>;
  upload: WrittenUpload | null;
}

/** The form parser's limits (see RouteOptions.multipart), answered as the contract's 400s. */
const LIMIT_MESSAGES: Record<string, string> = {
  FST_FILES_LIMIT: "Send one file at a time.",
  FST_FIELDS_LIMIT: "The form has too many fields.",
  FST_PARTS_LIMIT: "The form has too many fields.",
};

/**
 * Reads a `multipart/form-data` body as it arrives. With `upload`, the file named `upload` is
 * streamed to storage (at most `maxBytes`) rather than held in memory; any other file is read past
 * and dropped. A form that is malformed, cut short or over a limit is a 400 and leaves nothing stored.
 */
export async function readUploadForm(request: FastifyRequest, options: { upload?: { dataDir: string; maxBytes: number } } = {}): Promise<UploadForm> {
  const store = options.upload;
  const fields: Record<string, unknown> = {};
  let upload: WrittenUpload | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === "field") {
        if (part.valueTruncated) throw AppError.field("max_length", part.fieldname, "This field is too long.");
        fields[part.fieldname] = part.value;
      } else if (store && part.fieldname === "upload" && upload === null && part.filename !== "") {
        upload = await writeUpload({ dataDir: store.dataDir, name: part.filename, body: part.file, maxBytes: store.maxBytes });
      } else {
        // Each part must be read to its end before the parser hands over the next one.
        part.file.resume();
        await finished(part.file);
      }
    }
    refuseUnstorableText(fields);
  } catch (error) {
    if (store && upload) await discardUpload(store.dataDir, upload);
    if (error instanceof AppError) throw error;
    const message = LIMIT_MESSAGES[(error as { code?: string }).code ?? ""];
    if (message) throw new AppError("bad_request", { message, details: message });
    throw new AppError("parse_error");
  }
  return { fields, upload };
}
