import type { AnyChallengeView, CategoryView, ChallengeView } from "@flagship/api";

export type { AnyChallengeView, CategoryView, ChallengeView };

export function isFull(view: AnyChallengeView): view is ChallengeView {
  return "name" in view;
}

/** Finds by id (digits) or slug, as the /campaign/{tabId} and /{chalId} routes allow. */
export function findCategory(categories: CategoryView[], key: string): CategoryView | undefined {
  return categories.find((c) => String(c.id) === key) ?? categories.find((c) => c.slug === key);
}

export function findChallenge(category: CategoryView, key: string): AnyChallengeView | undefined {
  return category.challenges.find((c) => String(c.id) === key) ?? category.challenges.find((c) => isFull(c) && c.slug === key);
}

export function challengeKey(challenge: ChallengeView): string {
  return challenge.slug || String(challenge.id);
}
