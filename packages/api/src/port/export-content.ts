import { AppError, type CategoryData, type ChallengeData, parseInput, remapUnlock, unlockChallengeIds, ZIdInput } from "@flagship/shared";
import { type CatalogCategory, type CatalogChallenge, getCatalog } from "../challenges/catalog.ts";
import { getExperiments } from "../config/get-config.ts";
import type { StaffContext } from "../guards.ts";

/**
 * Exports are built on the server from the catalog, so what players' state adds to a challenge
 * (solved, unlocked, first_blood, solve_count, votes) and what hints and files carry about their
 * challenge (used, challenge, ids) is left out by construction, not stripped afterwards.
 */

export type ChallengeExport = Omit<ChallengeData, "hints"> & { id: number; hints: { name: string; penalty: number; text: string; requirements: number[] }[] };
export type CategoryExport = Omit<CategoryData, "challenges"> & { display_order: number; challenges: ChallengeExport[] };

function byId(a: { id: number }, b: { id: number }): number {
  return a.id - b.id;
}

/** Which challenges each challenge unlocks (the ids whose requirements mention it). */
function unlocksOf(challenges: Iterable<CatalogChallenge>): Map<number, number[]> {
  const unlocks = new Map<number, number[]>();
  for (const challenge of [...challenges].sort(byId)) {
    for (const id of unlockChallengeIds(challenge.unlockRequirements)) {
      let list = unlocks.get(id);
      if (!list) unlocks.set(id, (list = []));
      list.push(challenge.id);
    }
  }
  return unlocks;
}

/** A hint's requirements as positions in its challenge's list of hints (hint ids mean nothing elsewhere). */
function hintsExport(challenge: CatalogChallenge): ChallengeExport["hints"] {
  const positions = new Map(challenge.hints.map((h, index) => [h.id, index]));
  return challenge.hints.map((h) => ({
    name: h.name,
    penalty: h.penalty,
    text: h.text,
    requirements: h.requirements.flatMap((id) => (positions.has(id) ? [positions.get(id)!] : [])),
  }));
}

/**
 * `within`: the ids the file carries, when it does not carry the whole event; a suggested next
 * challenge outside them is left out (a single challenge's names its id, which its import ignores).
 */
function challengeExport(challenge: CatalogChallenge, unlocks: Map<number, number[]>, ids: ReadonlyMap<number, number>, within?: ReadonlySet<number>): ChallengeExport {
  const id = (value: number) => ids.get(value) ?? value;
  const next = challenge.nextChallengeId;
  return {
    id: id(challenge.id),
    name: challenge.name,
    description: challenge.description,
    challenge_type: challenge.challengeType,
    challenge_metadata: challenge.challengeMetadata,
    flag_type: challenge.flagType as ChallengeData["flag_type"],
    flag_metadata: challenge.flagMetadata,
    author: challenge.author,
    score: challenge.score,
    points_type: challenge.pointsType as ChallengeData["points_type"],
    unlock_requirements: remapUnlock(challenge.unlockRequirements, ids),
    unlocks: (unlocks.get(challenge.id) ?? []).map(id),
    hidden: challenge.hidden,
    maintenance: challenge.maintenance,
    tiebreaker: challenge.tiebreaker,
    post_score_explanation: challenge.postScoreExplanation,
    attempt_limit: challenge.attemptLimit,
    tags: challenge.tags.map((t) => ({ type: t.type, text: t.text })),
    hints: hintsExport(challenge),
    files: challenge.files.map((f) => ({ name: f.name, url: f.url, size: f.size })),
    scheduled_at: challenge.scheduledAt,
    next_challenge: next === null || (within && !within.has(next)) ? null : id(next),
  };
}

function categoryExport(category: CatalogCategory, unlocks: Map<number, number[]>, ids: ReadonlyMap<number, number>, within?: ReadonlySet<number>): CategoryExport {
  return {
    name: category.name,
    contained_type: category.containedType,
    description: category.description,
    display_order: category.displayOrder,
    metadata: category.metadata,
    challenges: [...category.challenges].sort(byId).map((c) => challengeExport(c, unlocks, ids, within)),
  };
}

const SAME_IDS: ReadonlyMap<number, number> = new Map();

export async function exportChallenge(ctx: StaffContext, input: unknown): Promise<ChallengeExport> {
  const { id } = parseInput(ZIdInput, input);
  const catalog = await getCatalog(ctx);
  const challenge = catalog.challenges.get(id);
  if (!challenge) throw new AppError("not_found");
  return challengeExport(challenge, unlocksOf(catalog.challenges.values()), SAME_IDS);
}

/** A category with its challenges under their own ids (unlocks refer to those ids). */
export async function exportCategory(ctx: StaffContext, input: unknown): Promise<CategoryExport> {
  const { id } = parseInput(ZIdInput, input);
  const catalog = await getCatalog(ctx);
  const category = catalog.categories.find((c) => c.id === id);
  if (!category) throw new AppError("not_found");
  return categoryExport(category, unlocksOf(catalog.challenges.values()), SAME_IDS, new Set(category.challenges.map((c) => c.id)));
}

/** Whole-event import and export are behind the importEntire experiment. */
export async function requireImportEntire(ctx: StaffContext): Promise<void> {
  const experiments = await getExperiments(ctx);
  if (experiments.importEntire !== true) throw new AppError("permission_denied", { message: "Whole-event import and export are not enabled (importEntire)." });
}

/**
 * Every category and challenge, for the event archive. Challenge ids are renumbered 1..n in
 * export order (and unlocks with them), so the file does not depend on the database it came from:
 * exporting an event, importing it into an empty one and exporting again gives the same file.
 */
export async function exportEventCategories(ctx: StaffContext): Promise<CategoryExport[]> {
  const catalog = await getCatalog(ctx);
  const ids = new Map<number, number>();
  for (const category of catalog.categories) for (const challenge of [...category.challenges].sort(byId)) ids.set(challenge.id, ids.size + 1);
  const unlocks = unlocksOf(catalog.challenges.values());
  return catalog.categories.map((category) => categoryExport(category, unlocks, ids));
}
