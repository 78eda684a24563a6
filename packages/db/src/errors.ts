import { Prisma } from "./generated/client.ts";

/** True when a write failed on a unique constraint (optionally on the given column). */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  if (field === undefined) return true;
  return JSON.stringify(error.meta ?? {}).includes(field);
}
