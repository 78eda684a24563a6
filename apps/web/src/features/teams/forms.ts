import { i18n } from "../../lib/i18n.ts";
import { errorCode } from "../../lib/trpc.ts";

/** The server's field errors (`{field: [message]}`), first message per field, for a form. */
export { fieldErrors as serverFieldErrors } from "../auth/errors.ts";

/** A failed call's message from the shared catalogue, by its app code. */
export function errorText(error: unknown): string {
  const code = errorCode(error);
  if (code) return i18n.t(`errors.${code}`);
  return error instanceof Error && error.message ? error.message : i18n.t("generic.unknown");
}
