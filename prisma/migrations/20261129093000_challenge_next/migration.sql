-- The challenge suggested next after a solve (ctfcli's `next`).
ALTER TABLE "challenges" ADD COLUMN "next_challenge_id" INTEGER;
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_next_challenge_id_fkey" FOREIGN KEY ("next_challenge_id") REFERENCES "challenges"("id") ON DELETE SET NULL ON UPDATE CASCADE;
