-- The submissions log pages by key, newest first, as a whole or for one team, player or challenge:
-- each filter reads its own (column, timestamp, id) index. They replace the indexes on the column
-- alone (and on challenge and timestamp), which the new ones lead with.
DROP INDEX "solves_user_id_idx";
DROP INDEX "solves_challenge_id_idx";
DROP INDEX "incorrect_attempts_user_id_idx";
DROP INDEX "incorrect_attempts_challenge_id_timestamp_idx";

CREATE INDEX "solves_team_id_timestamp_id_idx" ON "solves"("team_id", "timestamp" DESC, "id" DESC);
CREATE INDEX "solves_user_id_timestamp_id_idx" ON "solves"("user_id", "timestamp" DESC, "id" DESC);
CREATE INDEX "solves_challenge_id_timestamp_id_idx" ON "solves"("challenge_id", "timestamp" DESC, "id" DESC);
CREATE INDEX "incorrect_attempts_team_id_timestamp_id_idx" ON "incorrect_attempts"("team_id", "timestamp" DESC, "id" DESC);
CREATE INDEX "incorrect_attempts_user_id_timestamp_id_idx" ON "incorrect_attempts"("user_id", "timestamp" DESC, "id" DESC);
CREATE INDEX "incorrect_attempts_challenge_id_timestamp_id_idx" ON "incorrect_attempts"("challenge_id", "timestamp" DESC, "id" DESC);
