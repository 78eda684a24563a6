import { TRPCClientError } from "@trpc/client";
import i18next from "i18next";
import { errorCode } from "../../lib/trpc.ts";

/** The server's field errors (`{field: [message]}`), first message per field, for a form. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const details = (error.data as { details?: unknown } | undefined)?.details;
  if (!details || typeof details !== "object") return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(details as Record<string, unknown>)) {
    if (Array.isArray(messages) && typeof messages[0] === "string") out[field] = messages[0];
  }
  return out;
}

/** A failed call's message from the shared catalogue, by its app code. */
export function errorText(error: unknown): string {
  const code = errorCode(error);
  if (code) return i18next.t(`errors.${code}`);
  return error instanceof Error && error.message ? error.message : i18next.t("generic.unknown");
}
