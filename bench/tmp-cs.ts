import { startDatabase } from "./harness.ts";
import { seedChallenges } from "./scenarios/challenges.ts";
import { benchChallengeServers } from "./scenarios/challenge-servers.ts";
const database = await startDatabase();
try {
  const game = await seedChallenges(database.url);
  console.log(await benchChallengeServers(database.url, game));
} finally {
  await database.stop();
}
process.exit(0);
