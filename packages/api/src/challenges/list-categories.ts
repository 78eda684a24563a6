import { AppError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { requireChallengeAccess } from "./access.ts";
import { getCatalog } from "./catalog.ts";
import { loadPlayerState } from "./team-state.ts";
import { type AnyChallengeView, type CategoryView, categoryView, challengeView } from "./views.ts";

/** Every category with its challenges as the caller may see them. */
export async function listCategories(ctx: Context): Promise<CategoryView[]> {
  const access = await requireChallengeAccess(ctx);
  const { actor } = access.ctx;
  const [catalog, state] = await Promise.all([getCatalog(ctx), loadPlayerState(ctx.db, actor.id, actor.teamId)]);
  return catalog.categories.map((category) => categoryView(category, state, access.staff));
}

/** One challenge by id: the stub when locked, not_found when hidden from the caller. */
export async function getChallenge(ctx: Context, id: number): Promise<AnyChallengeView> {
  const access = await requireChallengeAccess(ctx);
  const { actor } = access.ctx;
  const [catalog, state] = await Promise.all([getCatalog(ctx), loadPlayerState(ctx.db, actor.id, actor.teamId)]);
  const challenge = catalog.challenges.get(id);
  const view = challenge ? challengeView(challenge, state, access.staff) : null;
  if (!view) throw new AppError("not_found");
  return view;
}
