import type { AnyChallengeView, CategoryView } from "./types.ts";
import { isFull } from "./types.ts";

/**
 * The listing as a player without the challenges' solves would get it, drawn from the staff's
 * listing for the "view as a player" preview: hidden challenges left out, locked ones reduced to
 * the stub the server sends players (no name, no description, no challenge server).
 */
export function asPlayerSees(categories: CategoryView[]): CategoryView[] {
  return categories.map((category) => ({ ...category, challenges: category.challenges.flatMap(asPlayerSeesChallenge) }));
}

function asPlayerSeesChallenge(view: AnyChallengeView): AnyChallengeView[] {
  if (!isFull(view)) return [view];
  if (view.hidden) return [];
  if (view.unlocked || view.solved) {
    const { flag_metadata: _flag, attempt_limit: _limit, ...player } = view;
    return [player];
  }
  const { cserv_name: _server, ...metadata } = view.challenge_metadata;
  return [
    {
      id: view.id,
      category: view.category,
      unlock_requirements: view.unlock_requirements,
      challenge_type: view.challenge_type,
      challenge_metadata: metadata,
      solve_count: view.solve_count,
      votes: view.votes,
      unlocked: false,
    },
  ];
}

/** A category's points: what the caller's team has earned of what it offers. */
export function categoryProgress(category: CategoryView): { solved: number; total: number; earned: number; available: number } {
  let solved = 0;
  let earned = 0;
  let available = 0;
  for (const challenge of category.challenges) {
    if (!isFull(challenge)) continue;
    available += challenge.current_score;
    if (challenge.solved) {
      solved += 1;
      earned += challenge.current_score;
    }
  }
  return { solved, total: category.challenges.length, earned, available };
}
