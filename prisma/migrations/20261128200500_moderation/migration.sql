-- The flag a correct solve was made with, and the staff member who marked a challenge solved.
ALTER TABLE "solves" ADD COLUMN "flag" TEXT;
ALTER TABLE "solves" ADD COLUMN "marked_by_id" INTEGER;
ALTER TABLE "solves" ADD CONSTRAINT "solves_marked_by_id_fkey" FOREIGN KEY ("marked_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The submissions log reads both tables newest first.
CREATE INDEX "solves_timestamp_id_idx" ON "solves"("timestamp" DESC, "id" DESC);
CREATE INDEX "incorrect_attempts_timestamp_id_idx" ON "incorrect_attempts"("timestamp" DESC, "id" DESC);

-- CreateTable
CREATE TABLE "awards" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER,
    "user_id" INTEGER,
    "points" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removed_at" TIMESTAMP(3),

    CONSTRAINT "awards_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "awards_team_id_created_at_idx" ON "awards"("team_id", "created_at");
CREATE INDEX "awards_user_id_created_at_idx" ON "awards"("user_id", "created_at");

ALTER TABLE "awards" ADD CONSTRAINT "awards_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "awards" ADD CONSTRAINT "awards_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "awards" ADD CONSTRAINT "awards_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
