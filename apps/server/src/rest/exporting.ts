import { type Context, hasStaffPowers } from "@flagship/api";
import type { FastifyRequest } from "fastify";

/**
 * Whether a list is read for RACTF's CSV exports (`X-Exporting: true`; upstream reads `Exporting`
 * too) by staff: they get the staff objects. Anyone else sending it gets the ordinary list, and so
 * does its member search, which sends `exporting: false`.
 */
export async function isStaffExport(ctx: Context, request: FastifyRequest): Promise<boolean> {
  const value = request.headers["x-exporting"] ?? request.headers.exporting;
  return typeof value === "string" && value.trim().toLowerCase() === "true" && (await hasStaffPowers(ctx));
}
