import { AppError, parseInput } from "@flagship/shared";
import { z } from "zod";
import { writeAudit } from "../audit/write-audit.ts";
import { generateKey, hashKey } from "../auth/tokens.ts";
import type { StaffContext } from "../guards.ts";

/**
 * One challenge sync at a time. A sync (`npx flagship challenge sync`) is many requests; two run
 * together would each see a challenge missing and both create it. So a sync first takes the
 * event's one lease, renews it while it writes and gives it back at the end; a second sync is
 * refused while the lease is held. A command that dies stops renewing and its lease runs out.
 */
export const SYNC_LEASE_SECONDS = 120;

const ZStartSync = z.object({ holder: z.string().trim().max(200).default("") });
const ZLeaseToken = z.object({ token: z.string().min(1).max(200) });

export interface SyncLeaseView {
  token: string;
  expires_at: string;
}

const LEASE_ID = 1;

/** POST /challenges/sync/lease/: takes the lease (201), or sync_in_progress (409) naming who holds it. Audited. */
export async function startChallengeSync(ctx: StaffContext, input: unknown): Promise<SyncLeaseView> {
  const { holder } = parseInput(ZStartSync, input ?? {});
  const token = generateKey();
  const now = new Date(ctx.now() * 1000);
  const expiresAt = new Date(now.getTime() + SYNC_LEASE_SECONDS * 1000);
  const data = { tokenHash: hashKey(token), userId: ctx.actor.id, username: ctx.actor.username, holder, acquiredAt: now, expiresAt };
  const taken = await ctx.db.$transaction(async (tx) => {
    // ON CONFLICT DO NOTHING: of two first syncs inserting together, the second waits and inserts nothing.
    let got = (await tx.challengeSyncLease.createMany({ data: [{ id: LEASE_ID, ...data }], skipDuplicates: true })).count === 1;
    // A lease that ran out is taken over. The condition is checked under the row's lock, so of two
    // syncs taking over together the second finds the lease no longer run out and gets nothing.
    if (!got) got = (await tx.challengeSyncLease.updateMany({ where: { id: LEASE_ID, expiresAt: { lte: now } }, data })).count === 1;
    if (got) await writeAudit(tx, ctx.actor, "start_challenge_sync", { holder });
    return got;
  });
  if (!taken) {
    const lease = await ctx.db.challengeSyncLease.findUnique({ where: { id: LEASE_ID }, select: { username: true, holder: true, acquiredAt: true, expiresAt: true } });
    throw new AppError("sync_in_progress", {
      details: lease ? { username: lease.username, holder: lease.holder, since: lease.acquiredAt.toISOString(), expires_at: lease.expiresAt.toISOString() } : "",
    });
  }
  return { token, expires_at: expiresAt.toISOString() };
}

/** PATCH /challenges/sync/lease/: extends the caller's lease; sync_lease_lost (409) once it ran out. */
export async function renewChallengeSync(ctx: StaffContext, input: unknown): Promise<SyncLeaseView> {
  const { token } = parseInput(ZLeaseToken, input);
  const now = new Date(ctx.now() * 1000);
  const expiresAt = new Date(now.getTime() + SYNC_LEASE_SECONDS * 1000);
  const renewed = await ctx.db.challengeSyncLease.updateMany({ where: { id: LEASE_ID, tokenHash: hashKey(token), expiresAt: { gt: now } }, data: { expiresAt } });
  if (renewed.count === 0) throw new AppError("sync_lease_lost");
  return { token, expires_at: expiresAt.toISOString() };
}

/** DELETE /challenges/sync/lease/: gives the caller's lease back (again: nothing happens). Audited. */
export async function endChallengeSync(ctx: StaffContext, input: unknown): Promise<void> {
  const { token } = parseInput(ZLeaseToken, input);
  await ctx.db.$transaction(async (tx) => {
    const ended = await tx.challengeSyncLease.deleteMany({ where: { id: LEASE_ID, tokenHash: hashKey(token) } });
    if (ended.count > 0) await writeAudit(tx, ctx.actor, "end_challenge_sync", {});
  });
}
