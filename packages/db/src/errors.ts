import { Prisma } from "./generated/client.ts";

/** True when a write failed on a unique constraint (optionally on the given column). */
export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  if (field === undefined) return true;
  return JSON.stringify(error.meta ?? {}).includes(field);
}

/** The codes an error carries: Prisma's (P2034...), the driver adapter's kind and PostgreSQL's SQLSTATE. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    for (const key of ["code", "kind", "originalCode"]) if (typeof record[key] === "string") codes.push(record[key]);
    if (typeof record.message === "string") {
      const sqlState = /Code: `([0-9A-Z]{5})`/.exec(record.message);
      if (sqlState?.[1]) codes.push(sqlState[1]);
    }
    visit(record.cause, depth + 1);
    visit((record.meta as Record<string, unknown> | undefined)?.driverAdapterError, depth + 1);
  };
  visit(error, 0);
  return codes;
}

/** True for a serialization failure (40001) or deadlock (40P01): the transaction may simply be run again. */
export function isTransactionConflict(error: unknown): boolean {
  return errorCodes(error).some((code) => code === "40001" || code === "40P01" || code === "P2034" || code === "TransactionWriteConflict");
}

/** True when an interactive transaction ran past its allowance (P2028: it was closed before it finished). */
export function isTransactionTimeout(error: unknown): boolean {
  return errorCodes(error).includes("P2028");
}

/** The model a unique violation happened on ("User", "Team"...), when Prisma says. */
export function uniqueViolationModel(error: unknown): string | null {
  if (!isUniqueViolation(error)) return null;
  const model = ((error as { meta?: { modelName?: unknown } }).meta ?? {}).modelName;
  return typeof model === "string" ? model : null;
}

const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "P1001", "P1002", "P1017", "ECONNREFUSED", "ECONNRESET", "EPIPE"]);

/**
 * True when the database could not be reached or is restarting (57P01-57P03 shutdown and start-up,
 * class 08 connection failures, a refused or dropped socket): the request may succeed if retried
 * later, so it deserves 503 rather than 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (errorCodes(error).some((code) => UNAVAILABLE_KINDS.has(code) || /^57P0[1-3]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|connection timeout|the database system is (starting up|shutting down)|terminating connection due to administrator command|Can't reach database server/i.test(message);
}
