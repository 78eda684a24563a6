-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "leaderboard_group_id" INTEGER;

-- CreateTable
CREATE TABLE "leaderboard_groups" (
    "id" SERIAL NOT NULL,
    "name" CITEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "is_self_assignable" BOOLEAN NOT NULL DEFAULT true,
    "has_own_leaderboard" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leaderboard_groups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "leaderboard_groups_name_key" ON "leaderboard_groups"("name");

-- CreateIndex
CREATE INDEX "teams_leaderboard_group_id_idx" ON "teams"("leaderboard_group_id");

-- AddForeignKey
ALTER TABLE "teams" ADD CONSTRAINT "teams_leaderboard_group_id_fkey" FOREIGN KEY ("leaderboard_group_id") REFERENCES "leaderboard_groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;
