import { isUniqueViolation } from "@flagship/db";
import { AppError, parseInput, ZUpdateSelfInput } from "@flagship/shared";
import type { AuthedContext } from "../guards.ts";
import { loadSelf, type SelfView } from "./get-self.ts";

/** PATCH /member/self/: the profile fields and the username, with the specs' limits. */
export async function updateSelf(ctx: AuthedContext, raw: unknown): Promise<SelfView> {
  const input = parseInput(ZUpdateSelfInput, raw);
  try {
    await ctx.db.user.update({ where: { id: ctx.actor.id }, data: input, select: { id: true } });
  } catch (error) {
    // citext makes the unique index case-insensitive, also between concurrent renames.
    // The contract's field code, the same the staff edit answers.
    if (isUniqueViolation(error, "username")) throw AppError.field("unique", "username", "That username is already taken.");
    throw error;
  }
  // The boards show usernames.
  if (input.username !== undefined) await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  // Read fresh: the maintained views are dropped only once this reply is on its way.
  return loadSelf(ctx);
}
