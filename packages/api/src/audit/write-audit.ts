import type { Db, Prisma } from "@flagship/db";
import type { Actor } from "../context.ts";

type Tx = Db | Prisma.TransactionClient;

/**
 * Records a staff write, or an event staff should see that no one signed in caused (`actor` null,
 * e.g. an account's sign-in blocked after wrong passwords). Called inside the write's transaction
 * where there is one.
 */
export async function writeAudit(db: Tx, actor: Pick<Actor, "id" | "username"> | null, action: string, extra: Record<string, unknown> = {}): Promise<void> {
  await db.auditLog.create({
    data: { action, userId: actor?.id ?? null, username: actor?.username ?? "", extra: extra as Prisma.InputJsonValue },
  });
}
