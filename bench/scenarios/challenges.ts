import { load, type LoadOptions, type Measurement, type Server, summarise } from "../harness.ts";
import type { Seeded } from "../seed.ts";

export type { Seeded } from "../seed.ts";

const LISTING_GOAL = { rps: 6000, p99: 50 };
const WRONG_FLAG_GOAL = { rps: 5000, p99: 50 };

/** GET /challenges/categories/ as every player in turn (2000 tokens), so per-team work is real. */
export async function benchCategoryListing(server: Server, seeded: Seeded): Promise<Measurement> {
  const result = await load({ ...categoryListingLoad(seeded), url: server.urls, warmEach: seeded.tokens.length, atRate: LISTING_GOAL.rps });
  return summarise(`Category listing as a player (${seeded.challenges.length} challenges, ${seeded.tokens.length} players' tokens)`, result, LISTING_GOAL);
}

/** The category listing's requests: GET /challenges/categories/ as every player in turn. */
export function categoryListingLoad(seeded: Seeded): Pick<LoadOptions, "requests"> {
  let n = 0;
  return {
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, path: "/api/v2/challenges/categories/", headers: { ...req.headers, authorization: `Token ${seeded.tokens[n++ % seeded.tokens.length]}` } }),
      },
    ],
  };
}

/** POST /challenges/submit_flag/ with a wrong flag for a challenge the team has not solved, as every player in turn. */
export async function benchIncorrectSubmission(server: Server, seeded: Seeded): Promise<Measurement> {
  const result = await load({ ...incorrectSubmissionLoad(seeded), url: server.urls, warmEach: seeded.tokens.length, atRate: WRONG_FLAG_GOAL.rps });
  return summarise(`Incorrect flag submission (${seeded.tokens.length} players' tokens)`, result, WRONG_FLAG_GOAL);
}

/** A wrong flag's requests: POST /challenges/submit_flag/ for a challenge the team has not solved, as every player in turn. */
export function incorrectSubmissionLoad(seeded: Seeded): Pick<LoadOptions, "requests"> {
  let n = 0;
  return {
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          const player = n++ % seeded.tokens.length;
          return {
            ...req,
            path: "/api/v2/challenges/submit_flag/",
            headers: { ...req.headers, authorization: `Token ${seeded.tokens[player]}`, "content-type": "application/json" },
            body: JSON.stringify({ challenge: seeded.openChallenge[player], flag: "flag{not-the-flag}" }),
          };
        },
      },
    ],
  };
}
