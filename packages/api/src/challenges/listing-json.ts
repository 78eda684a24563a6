import type { CatalogCategory, CatalogChallenge } from "./catalog.ts";
import type { PlayerState } from "./team-state.ts";
import { categoryFields, fixedFields, stubFields, unlockedFor } from "./views.ts";

/**
 * The players' category listing written straight to JSON. The listing is the hottest read of an
 * event: instead of building ~100 objects per request and serialising them again, each challenge's
 * unchanging part is serialised once per catalog and only the per-team fields (solved, unlocked,
 * hint texts, the explanation, the caller's vote) are spliced in, and the answers most players share
 * are kept as bytes (below). The fixed parts come from the
 * same builders as `categoryView`, so the result parses to exactly what it builds for a player; a
 * test holds the two together.
 */

interface ChallengeFragments {
  /** `{"id":...,"tiebreaker":...` without the closing brace: the full view's fixed fields. */
  head: string;
  hints: { unused: string; used: string; id: number }[];
  explanation: string;
  /** The locked stub's fixed fields, likewise open. */
  stubHead: string;
}

const fragments = new WeakMap<CatalogChallenge, ChallengeFragments>();

const open = (value: object) => JSON.stringify(value).slice(0, -1);

function fragmentsOf(challenge: CatalogChallenge): ChallengeFragments {
  let cached = fragments.get(challenge);
  if (cached) return cached;
  cached = {
    head: open(fixedFields(challenge)),
    hints: challenge.hints.map((hint) => ({
      id: hint.id,
      unused: JSON.stringify({ id: hint.id, name: hint.name, penalty: hint.penalty, text: "", used: false, requirements: hint.requirements }),
      used: JSON.stringify({ id: hint.id, name: hint.name, penalty: hint.penalty, text: hint.text, used: true, requirements: hint.requirements }),
    })),
    explanation: JSON.stringify(challenge.postScoreExplanation),
    stubHead: open(stubFields(challenge)),
  };
  fragments.set(challenge, cached);
  return cached;
}

function votesJson(challenge: CatalogChallenge, state: PlayerState): string {
  const self = state.votes.get(challenge.id);
  return `{"positive":${challenge.votesPositive},"negative":${challenge.votesNegative},"self":${self === undefined ? "null" : self}}`;
}

/** One challenge as a player sees it, as JSON; null when hidden. */
export function playerChallengeJson(challenge: CatalogChallenge, state: PlayerState): string | null {
  if (challenge.withheld) return null;
  const f = fragmentsOf(challenge);
  const solved = state.solved.has(challenge.id);
  const unlocked = solved || unlockedFor(challenge, state);
  if (!unlocked) return `${f.stubHead},"votes":${votesJson(challenge, state)}}`;
  let hints = "";
  for (const hint of f.hints) hints += (hints === "" ? "" : ",") + (state.hintsUsed.has(hint.id) ? hint.used : hint.unused);
  return `${f.head},"hints":[${hints}],"solved":${solved},"unlocked":true,"votes":${votesJson(challenge, state)},"post_score_explanation":${solved ? f.explanation : '""'}}`;
}

/**
 * A challenge's JSON as a player sees it, as bytes. Most players see most challenges the same way:
 * open or solved, no hint of theirs used, no vote of their own; those answers are encoded once per
 * catalog object and shared by every team, so the listing is mostly copied, not written.
 */
function playerChallengeBytes(challenge: CatalogChallenge, state: PlayerState): Buffer | null {
  if (challenge.withheld) return null;
  const f = fragmentsOf(challenge);
  const solved = state.solved.has(challenge.id);
  const unlocked = solved || unlockedFor(challenge, state);
  const own = state.votes.has(challenge.id) || (unlocked && f.hints.some((hint) => state.hintsUsed.has(hint.id)));
  if (own) return Buffer.from(playerChallengeJson(challenge, state)!);
  const kind = !unlocked ? "stub" : solved ? "solved" : "open";
  let bytes = sharedBytes.get(challenge);
  if (!bytes) sharedBytes.set(challenge, (bytes = {}));
  return (bytes[kind] ??= Buffer.from(playerChallengeJson(challenge, state)!));
}

const sharedBytes = new WeakMap<CatalogChallenge, Partial<Record<"open" | "solved" | "stub", Buffer>>>();
const categoryBytes = new WeakMap<CatalogCategory, Buffer>();
const BYTES = { open: Buffer.from("["), close: Buffer.from("]"), comma: Buffer.from(","), endCategory: Buffer.from("]}") };

/**
 * Every category with its challenges as a player sees them: the chunks of one JSON array, to be
 * concatenated (or written) in order.
 */
export function playerListingChunks(categories: readonly CatalogCategory[], state: PlayerState): Buffer[] {
  const chunks: Buffer[] = [BYTES.open];
  for (const [index, category] of categories.entries()) {
    let head = categoryBytes.get(category);
    if (head === undefined) {
      head = Buffer.from(`${open(categoryFields(category))},"challenges":[`);
      categoryBytes.set(category, head);
    }
    if (index > 0) chunks.push(BYTES.comma);
    chunks.push(head);
    let first = true;
    for (const challenge of category.challenges) {
      const bytes = playerChallengeBytes(challenge, state);
      if (bytes === null) continue;
      if (!first) chunks.push(BYTES.comma);
      chunks.push(bytes);
      first = false;
    }
    chunks.push(BYTES.endCategory);
  }
  chunks.push(BYTES.close);
  return chunks;
}
