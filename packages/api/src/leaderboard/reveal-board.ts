import { Prisma } from "@flagship/db";
import { AppError } from "@flagship/shared";
import { writeAudit } from "../audit/write-audit.ts";
import { publishConfigChange } from "../config/set-config.ts";
import type { StaffContext } from "../guards.ts";
import { freezeTime } from "./freeze.ts";

/**
 * Reveals the final board at the prize-giving: clears `scoreboard_freeze_time`, so every player
 * sees the live board again (the end of the event does not lift a freeze). Audited as
 * reveal_scoreboard with the set_config shape `{key, old_value, new_value}`. Only a board frozen
 * right now can be revealed: a freeze still to come is moved or cleared in the configuration, and
 * a second click (or a second staff member) gets `not_frozen` rather than a second entry.
 */
export async function revealBoard(ctx: StaffContext): Promise<{ revealed_at: number }> {
  const old = await ctx.config.get("scoreboard_freeze_time");
  const now = ctx.now();
  if (!freezeTime({ scoreboard_freeze_time: old }, now)) throw new AppError("not_frozen");
  await ctx.db.$transaction(async (tx) => {
    // Conditional on the value read, so two staff revealing at once write one entry between them.
    const cleared = await tx.config.updateMany({ where: { key: "scoreboard_freeze_time", value: { equals: old as number } }, data: { value: Prisma.JsonNull } });
    if (cleared.count === 0) throw new AppError("not_frozen");
    await writeAudit(tx, ctx.actor, "reveal_scoreboard", { key: "scoreboard_freeze_time", old_value: old, new_value: null });
  });
  await publishConfigChange(ctx, ["scoreboard_freeze_time"]);
  return { revealed_at: now };
}
