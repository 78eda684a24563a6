import type { FreezeSnapshot } from "../leaderboard/freeze.ts";
import type { Catalog, CatalogChallenge } from "./catalog.ts";

/**
 * The catalog as players see it while the scoreboard is frozen: each challenge's solve count,
 * value and first blood as they stood at the freeze (leaderboard/freeze.ts). Derived once per
 * catalog and snapshot, not per request; a challenge nothing has happened to since the freeze keeps
 * its very object, and a changed one keeps its frozen copy while it does not change again, so the
 * listing's pre-serialised fragments of either survive (listing-json.ts).
 */
const catalogs = new WeakMap<Catalog, { snapshot: FreezeSnapshot; catalog: Catalog }>();
const challenges = new WeakMap<CatalogChallenge, { snapshot: FreezeSnapshot; challenge: CatalogChallenge }>();

function frozenChallenge(challenge: CatalogChallenge, snapshot: FreezeSnapshot): CatalogChallenge {
  const frozen = snapshot.challenges.get(challenge.id);
  // Created after the snapshot was read: nobody solved it before the freeze.
  const at = frozen ?? { solveCount: 0, currentScore: challenge.score, firstBlood: null };
  if (challenge.solveCount === at.solveCount && challenge.currentScore === at.currentScore && challenge.firstBlood === at.firstBlood) return challenge;
  const known = challenges.get(challenge);
  if (known?.snapshot === snapshot) return known.challenge;
  const copy = { ...challenge, solveCount: at.solveCount, currentScore: at.currentScore, firstBlood: at.firstBlood };
  challenges.set(challenge, { snapshot, challenge: copy });
  return copy;
}

export function frozenCatalog(catalog: Catalog, snapshot: FreezeSnapshot): Catalog {
  const known = catalogs.get(catalog);
  if (known?.snapshot === snapshot) return known.catalog;
  const byId = new Map<number, CatalogChallenge>();
  for (const challenge of catalog.challenges.values()) byId.set(challenge.id, frozenChallenge(challenge, snapshot));
  const frozen: Catalog = {
    categories: catalog.categories.map((category) =>
      category.challenges.every((c) => byId.get(c.id) === c) ? category : { ...category, challenges: category.challenges.map((c) => byId.get(c.id) ?? c) },
    ),
    challenges: byId,
    hints: catalog.hints,
    nextRelease: catalog.nextRelease,
  };
  catalogs.set(catalog, { snapshot, catalog: frozen });
  return frozen;
}
