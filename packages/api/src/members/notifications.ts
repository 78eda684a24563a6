import { type NotificationPreferences, parseInput, ZUpdateNotificationPreferences } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";

const SELECT = { allSolves: true, flagReject: true, hintUsed: true, teamJoin: true } as const;

function view(row: { allSolves: boolean; flagReject: boolean; hintUsed: boolean; teamJoin: boolean } | null): NotificationPreferences {
  // No row yet means the defaults: every kind on.
  return {
    all_solves: row?.allSolves ?? true,
    flag_reject: row?.flagReject ?? true,
    hint_used: row?.hintUsed ?? true,
    team_join: row?.teamJoin ?? true,
  };
}

export async function getNotificationPreferences(ctx: AuthedContext): Promise<NotificationPreferences> {
  return view(await ctx.db.notificationPreference.findUnique({ where: { userId: ctx.actor.id }, select: SELECT }));
}

export async function updateNotificationPreferences(ctx: AuthedContext, raw: unknown): Promise<NotificationPreferences> {
  const input = parseInput(ZUpdateNotificationPreferences, raw);
  const data = {
    ...(input.all_solves !== undefined && { allSolves: input.all_solves }),
    ...(input.flag_reject !== undefined && { flagReject: input.flag_reject }),
    ...(input.hint_used !== undefined && { hintUsed: input.hint_used }),
    ...(input.team_join !== undefined && { teamJoin: input.team_join }),
  };
  const row = await ctx.db.notificationPreference.upsert({
    where: { userId: ctx.actor.id },
    create: { userId: ctx.actor.id, ...data },
    update: data,
    select: SELECT,
  });
  return view(row);
}
