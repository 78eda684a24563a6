import { isUnlocked } from "@flagship/shared";
import type { CatalogCategory, CatalogChallenge, JsonObject } from "./catalog.ts";
import type { PlayerState } from "./team-state.ts";

export interface Votes {
  positive: number;
  negative: number;
  self: boolean | null;
}

/** A challenge as a player sees it once it is unlocked (the contract's Challenge object). */
export interface ChallengeView {
  id: number;
  category: number;
  slug: string;
  name: string;
  description: string;
  challenge_type: string;
  challenge_metadata: JsonObject;
  flag_type: string;
  points_type: string;
  author: string;
  score: number;
  current_score: number;
  unlock_requirements: string;
  /** `requirements`: hints of the challenge to use before this one. */
  hints: { id: number; name: string; penalty: number; text: string; used: boolean; requirements: number[] }[];
  files: { id: number; name: string; url: string; size: number }[];
  solved: boolean;
  unlocked: boolean;
  first_blood: string | null;
  solve_count: number;
  hidden: boolean;
  maintenance: boolean;
  votes: Votes;
  tags: { type: string; text: string }[];
  tiebreaker: boolean;
  post_score_explanation: string;
  /**
   * The challenge suggested after a solve, by id, or null. Only an id: a client offers it by the
   * name it finds in the caller's own listing, so one the caller cannot see is never named.
   */
  next_challenge: number | null;
  /** Staff only. */
  flag_metadata?: JsonObject;
  attempt_limit?: number | null;
  source?: string;
  /** When it is released to players (ISO-8601), or null. */
  scheduled_at?: string | null;
}

/** A locked challenge: enough to place its tile, nothing that gives it away. */
export interface LockedChallengeView {
  id: number;
  category: number;
  unlock_requirements: string;
  challenge_type: string;
  challenge_metadata: JsonObject;
  solve_count: number;
  votes: Votes;
  unlocked: false;
}

export type AnyChallengeView = ChallengeView | LockedChallengeView;

export interface CategoryView {
  id: number;
  slug: string;
  name: string;
  display_order: number;
  contained_type: string;
  description: string;
  metadata: JsonObject;
  challenges: AnyChallengeView[];
}

export function isFullView(view: AnyChallengeView): view is ChallengeView {
  return "name" in view;
}

function votesOf(challenge: CatalogChallenge, state: PlayerState): Votes {
  return { positive: challenge.votesPositive, negative: challenge.votesNegative, self: state.votes.get(challenge.id) ?? null };
}

/**
 * What of a challenge is for staff only, even once players can read the challenge. ctfcli's
 * challenge files have admin-only fields, and the sync stores them where staff edit them: the
 * deploy target (`host`, such as ssh://root@10.0.0.5, and `protocol`) in challenge_metadata, and
 * `topics` as tags of type "topic".
 */
const STAFF_ONLY_METADATA = ["host", "protocol"];
const STAFF_ONLY_TAG_TYPE = "topic";

/** challenge_metadata as players read it: the same object when nothing in it is staff-only. */
function playerMetadata(metadata: JsonObject): JsonObject {
  if (!STAFF_ONLY_METADATA.some((key) => key in metadata)) return metadata;
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !STAFF_ONLY_METADATA.includes(key)));
}

function playerTags(tags: CatalogChallenge["tags"]): CatalogChallenge["tags"] {
  return tags.some((tag) => tag.type === STAFF_ONLY_TAG_TYPE) ? tags.filter((tag) => tag.type !== STAFF_ONLY_TAG_TYPE) : tags;
}

/**
 * The only challenge_metadata a locked stub carries: where its tile sits. Everything else
 * (connection details, attribution, a job's name, a plugin's settings such as its choices) would
 * tell about a challenge the team has not reached, so the stub names what it keeps rather than
 * what it drops.
 */
const STUB_METADATA = ["x", "y"];

function stubMetadata(metadata: JsonObject): JsonObject {
  return Object.fromEntries(STUB_METADATA.filter((key) => key in metadata).map((key) => [key, metadata[key]!]));
}

/** The full view's fields that do not depend on the team, as players read them (staff's view adds the staff-only parts). */
export function fixedFields(challenge: CatalogChallenge) {
  return {
    id: challenge.id,
    category: challenge.categoryId,
    slug: challenge.slug,
    name: challenge.name,
    description: challenge.description,
    challenge_type: challenge.challengeType,
    challenge_metadata: playerMetadata(challenge.challengeMetadata),
    flag_type: challenge.flagType,
    points_type: challenge.pointsType,
    author: challenge.author,
    score: challenge.score,
    current_score: challenge.currentScore,
    unlock_requirements: challenge.unlockRequirements,
    files: challenge.files,
    first_blood: challenge.firstBlood,
    solve_count: challenge.solveCount,
    hidden: challenge.hidden,
    maintenance: challenge.maintenance,
    tags: playerTags(challenge.tags),
    tiebreaker: challenge.tiebreaker,
    next_challenge: challenge.nextChallengeId,
  };
}

/** A locked stub's fields, votes aside: enough to place its tile, nothing that gives it away. */
export function stubFields(challenge: CatalogChallenge) {
  return {
    id: challenge.id,
    category: challenge.categoryId,
    unlock_requirements: challenge.unlockRequirements,
    challenge_type: challenge.challengeType,
    challenge_metadata: stubMetadata(challenge.challengeMetadata),
    solve_count: challenge.solveCount,
    unlocked: false as const,
  };
}

/** A category's own fields, its challenges aside. */
export function categoryFields(category: CatalogCategory) {
  return {
    id: category.id,
    slug: category.slug,
    name: category.name,
    display_order: category.displayOrder,
    contained_type: category.containedType,
    description: category.description,
    metadata: category.metadata,
  };
}

export function unlockedFor(challenge: CatalogChallenge, state: PlayerState): boolean {
  return isUnlocked(challenge.unlockRequirements, state.solved);
}

/**
 * The view of one challenge for a player (`staff` false) or for staff. Players get null for a
 * hidden challenge, a stub for a locked one; hint texts and the post-score explanation stay empty
 * until the team has used the hint or solved the challenge. Only staff get flag_metadata and the
 * staff-only metadata and tags.
 */
export function challengeView(challenge: CatalogChallenge, state: PlayerState, staff: boolean): AnyChallengeView | null {
  if (challenge.withheld && !staff) return null;
  const solved = state.solved.has(challenge.id);
  const unlocked = solved || unlockedFor(challenge, state);
  if (!unlocked && !staff) return { ...stubFields(challenge), votes: votesOf(challenge, state) };
  const view: ChallengeView = {
    ...fixedFields(challenge),
    hints: challenge.hints.map((hint) => {
      const used = state.hintsUsed.has(hint.id);
      return { id: hint.id, name: hint.name, penalty: hint.penalty, text: used || staff ? hint.text : "", used, requirements: hint.requirements };
    }),
    solved,
    unlocked,
    votes: votesOf(challenge, state),
    post_score_explanation: solved || staff ? challenge.postScoreExplanation : "",
  };
  if (staff) {
    view.challenge_metadata = challenge.challengeMetadata;
    view.tags = challenge.tags;
    view.flag_metadata = challenge.flagMetadata;
    view.attempt_limit = challenge.attemptLimit;
    view.source = challenge.source;
    view.scheduled_at = challenge.scheduledAt;
  }
  return view;
}

export function categoryView(category: CatalogCategory, state: PlayerState, staff: boolean): CategoryView {
  const challenges: AnyChallengeView[] = [];
  for (const challenge of category.challenges) {
    const view = challengeView(challenge, state, staff);
    if (view) challenges.push(view);
  }
  return {
    ...categoryFields(category),
    challenges,
  };
}
