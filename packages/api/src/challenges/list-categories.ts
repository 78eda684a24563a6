import { AppError } from "@flagship/shared";
import type { Context } from "../context.ts";
import { requireChallengeAccess } from "./access.ts";
import { frozenSnapshot } from "../leaderboard/freeze.ts";
import { type Catalog, findChallenge, getCatalog } from "./catalog.ts";
import { frozenCatalog } from "./frozen-catalog.ts";
import { playerListingChunks } from "./listing-json.ts";
import { getPlayerState } from "./team-state.ts";
import { type AnyChallengeView, type CategoryView, categoryView, challengeView } from "./views.ts";

/** The catalog as the caller sees it: as it stood at the freeze while the scoreboard is frozen, for players. */
async function asSeen(ctx: Context, staff: boolean, catalog: Catalog): Promise<Catalog> {
  const snapshot = await frozenSnapshot(ctx, staff);
  return snapshot ? frozenCatalog(catalog, snapshot) : catalog;
}

/** Every category with its challenges as the caller may see them. */
export async function listCategories(ctx: Context): Promise<CategoryView[]> {
  const access = await requireChallengeAccess(ctx);
  const { actor } = access.ctx;
  const [live, state] = await Promise.all([getCatalog(ctx), getPlayerState(ctx, actor.id, actor.teamId)]);
  const catalog = await asSeen(ctx, access.staff, live);
  return catalog.categories.map((category) => categoryView(category, state, access.staff));
}

/**
 * The same listing as the chunks of one JSON array (the REST hot path): players' views are
 * assembled from pre-serialised fragments, staff's are serialised as usual.
 */
export async function listCategoriesJson(ctx: Context): Promise<Buffer[]> {
  const access = await requireChallengeAccess(ctx);
  const { actor } = access.ctx;
  const [live, state] = await Promise.all([getCatalog(ctx), getPlayerState(ctx, actor.id, actor.teamId)]);
  const catalog = await asSeen(ctx, access.staff, live);
  if (access.staff) return [Buffer.from(JSON.stringify(catalog.categories.map((category) => categoryView(category, state, true))))];
  return playerListingChunks(catalog.categories, state);
}

/** One challenge by id: the stub when locked, not_found when hidden from the caller. */
export async function getChallenge(ctx: Context, id: number): Promise<AnyChallengeView> {
  const access = await requireChallengeAccess(ctx);
  const { actor } = access.ctx;
  const [{ catalog: live, challenge: found }, state] = await Promise.all([findChallenge(ctx, id), getPlayerState(ctx, actor.id, actor.teamId)]);
  const challenge = found && (await asSeen(ctx, access.staff, live)).challenges.get(found.id);
  const view = challenge ? challengeView(challenge, state, access.staff) : null;
  if (!view) throw new AppError("not_found");
  return view;
}
