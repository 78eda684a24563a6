-- AlterTable
ALTER TABLE "incorrect_attempts" ADD COLUMN     "ip" TEXT;

-- AlterTable
ALTER TABLE "solves" ADD COLUMN     "ip" TEXT;

-- CreateTable
CREATE TABLE "sharing_incidents" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "challenge_id" INTEGER NOT NULL,
    "team_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "other_team_id" INTEGER NOT NULL,
    "flag" TEXT NOT NULL,
    "ip" TEXT,
    "other_ips" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sharing_incidents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sharing_incidents_created_at_idx" ON "sharing_incidents"("created_at");

-- CreateIndex
CREATE INDEX "incorrect_attempts_challenge_id_timestamp_idx" ON "incorrect_attempts"("challenge_id", "timestamp");

-- AddForeignKey
ALTER TABLE "sharing_incidents" ADD CONSTRAINT "sharing_incidents_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sharing_incidents" ADD CONSTRAINT "sharing_incidents_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sharing_incidents" ADD CONSTRAINT "sharing_incidents_other_team_id_fkey" FOREIGN KEY ("other_team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
