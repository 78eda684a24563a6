import type { CatalogCategory, CatalogChallenge } from "./catalog.ts";
import type { PlayerState } from "./team-state.ts";
import { categoryFields, fixedFields, stubFields, unlockedFor } from "./views.ts";

/**
 * The players' category listing written straight to JSON. The listing is the hottest read of an
 * event: instead of building ~100 objects per request and serialising them again, each challenge's
 * unchanging part is serialised once per catalog and only the per-team fields (solved, unlocked,
 * hint texts, the explanation, the caller's vote) are spliced in. The fixed parts come from the
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
const categoryHeads = new WeakMap<CatalogCategory, string>();

const open = (value: object) => JSON.stringify(value).slice(0, -1);

function fragmentsOf(challenge: CatalogChallenge): ChallengeFragments {
  let cached = fragments.get(challenge);
  if (cached) return cached;
  cached = {
    head: open(fixedFields(challenge)),
    hints: challenge.hints.map((hint) => ({
      id: hint.id,
      unused: JSON.stringify({ id: hint.id, name: hint.name, penalty: hint.penalty, text: "", used: false }),
      used: JSON.stringify({ id: hint.id, name: hint.name, penalty: hint.penalty, text: hint.text, used: true }),
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
  if (challenge.hidden) return null;
  const f = fragmentsOf(challenge);
  const solved = state.solved.has(challenge.id);
  const unlocked = solved || unlockedFor(challenge, state);
  if (!unlocked) return `${f.stubHead},"votes":${votesJson(challenge, state)}}`;
  let hints = "";
  for (const hint of f.hints) hints += (hints === "" ? "" : ",") + (state.hintsUsed.has(hint.id) ? hint.used : hint.unused);
  return `${f.head},"hints":[${hints}],"solved":${solved},"unlocked":true,"votes":${votesJson(challenge, state)},"post_score_explanation":${solved ? f.explanation : '""'}}`;
}

/** Every category with its challenges as a player sees them, as JSON. */
export function playerListingJson(categories: readonly CatalogCategory[], state: PlayerState): string {
  let out = "[";
  for (const [index, category] of categories.entries()) {
    let head = categoryHeads.get(category);
    if (head === undefined) {
      head = open(categoryFields(category));
      categoryHeads.set(category, head);
    }
    if (index > 0) out += ",";
    out += `${head},"challenges":[`;
    let first = true;
    for (const challenge of category.challenges) {
      const json = playerChallengeJson(challenge, state);
      if (json === null) continue;
      out += first ? json : `,${json}`;
      first = false;
    }
    out += "]}";
  }
  return `${out}]`;
}
