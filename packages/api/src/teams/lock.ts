import type { Prisma } from "@flagship/db";

/**
 * Locks team rows for the rest of the transaction (in id order, so two transactions locking the
 * same pair cannot deadlock). Joins, leaves and ownership changes serialise on this lock, which is
 * what keeps team_size and the owner rules true under concurrent requests. Returns the ids found.
 */
export async function lockTeams(tx: Prisma.TransactionClient, ids: readonly number[]): Promise<Set<number>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const found = new Set<number>();
  for (const id of sorted) {
    const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM teams WHERE id = ${id} FOR NO KEY UPDATE`;
    if (rows.length > 0) found.add(id);
  }
  return found;
}

/** Interactive transactions that may queue behind a team lock get room to wait. */
export const LOCKING_TX = { maxWait: 20_000, timeout: 30_000 } as const;

/** Moves a member's points with them, keeping a team's totals the sum of its members'. */
export async function shiftMemberPoints(
  tx: Prisma.TransactionClient,
  user: { points: number; leaderboardPoints: number },
  teamId: number,
  sign: 1 | -1,
): Promise<void> {
  if (user.points === 0 && user.leaderboardPoints === 0) return;
  await tx.team.update({
    where: { id: teamId },
    data: { points: { increment: sign * user.points }, leaderboardPoints: { increment: sign * user.leaderboardPoints } },
    select: { id: true },
  });
}
