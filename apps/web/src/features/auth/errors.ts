import { errorCode } from "../../lib/trpc.ts";
import { i18n } from "../../lib/i18n.ts";
import { TRPCClientError } from "@trpc/client";

/** The user-facing message of a failed call: the catalogue's text for its code, else a generic one. */
export function errorText(error: unknown): string {
  const code = errorCode(error);
  if (code === "throttled") return i18n.t("generic.throttled");
  if (code && i18n.exists(`errors.${code}`)) {
    // Field messages from the server are more specific than the code's text (e.g. zxcvbn advice).
    const fields = fieldErrors(error);
    const first = Object.values(fields)[0];
    return first ?? i18n.t(`errors.${code}`);
  }
  if (error instanceof TRPCClientError && !error.data) {
    const cause = error.cause as { name?: string } | undefined;
    return i18n.t(cause?.name === "TimeoutError" ? "generic.timeout" : "generic.network");
  }
  return i18n.t("generic.unknown");
}

/** The server's field map (`{field: message}`), flattened to the first message of each field. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const details = (error.data as { details?: unknown } | undefined)?.details;
  if (!details || typeof details !== "object") return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(details as Record<string, unknown>)) {
    if (Array.isArray(messages) && typeof messages[0] === "string") out[field] = messages[0];
  }
  return out;
}
