import type { Db, Prisma } from "@flagship/db";
import type { Actor } from "../context.ts";

type Tx = Db | Prisma.TransactionClient;

/** Records a staff write. Called inside the write's transaction where there is one. */
export async function writeAudit(db: Tx, actor: Pick<Actor, "id" | "username">, action: string, extra: Record<string, unknown> = {}): Promise<void> {
  await db.auditLog.create({
    data: { action, userId: actor.id, username: actor.username, extra: extra as Prisma.InputJsonValue },
  });
}
