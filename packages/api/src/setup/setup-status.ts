import type { Db } from "@flagship/db";
import type { Context } from "../context.ts";

/** Once an account exists a server never needs setting up again, so the answer is kept. */
const setUp = new WeakSet<Db>();

/**
 * Whether this Flagship still waits for its first-run setup: no account exists yet. The first
 * visitor is then greeted by the setup instead of an empty event. Asked on every page load of a
 * fresh server, so once an account exists the answer comes from memory.
 */
export async function setupNeeded(db: Db): Promise<boolean> {
  if (setUp.has(db)) return false;
  const any = await db.user.findFirst({ select: { id: true } });
  if (any) setUp.add(db);
  return !any;
}

export async function getSetupStatus(ctx: Context): Promise<{ needed: boolean; sso: boolean }> {
  return { needed: await setupNeeded(ctx.db), sso: ctx.oidc !== undefined };
}
