import { AppError, parseInput, ZWorkerIdInput } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { drainWorkers } from "./planner.ts";

/**
 * Staff take a worker out of service (the workers list's Drain): it takes no new instances and
 * the tier's periodic pass, run at once, moves its instances to other workers; once it runs
 * none, its host can be stopped and removed. A worker started afresh is in service again.
 */
export async function drainWorker(ctx: StaffContext, input: unknown): Promise<{ id: string; instances: number }> {
  const { id } = parseInput(ZWorkerIdInput, input);
  const instances = await ctx.db.$transaction(async (tx) => {
    const drained = await drainWorkers(tx, { id });
    if (drained.length === 0) throw new AppError("not_found");
    const held = await tx.challengeServerInstance.count({ where: { workerId: id } });
    await writeAudit(tx, ctx.actor, "drain_challenge_server_worker", { id, instances: held });
    return held;
  });
  ctx.challengeServers?.reconcile();
  return { id, instances };
}
