-- DropForeignKey
ALTER TABLE "challenge_server_jobs" DROP CONSTRAINT "challenge_server_jobs_challenge_id_fkey";

-- DropIndex
DROP INDEX "challenge_server_instances_job_id_slot_key";

-- AlterTable
ALTER TABLE "challenge_server_instances" ADD COLUMN     "error" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "generation" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "healthy_at" TIMESTAMP(3),
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "team_id" INTEGER,
ADD COLUMN     "worker_id" TEXT NOT NULL,
ALTER COLUMN "slot" DROP NOT NULL;

-- AlterTable
ALTER TABLE "challenge_server_jobs" DROP COLUMN "status",
ADD COLUMN     "generation" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "lifetime" INTEGER NOT NULL DEFAULT 7200,
ADD COLUMN     "writable" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "challenge_id" SET NOT NULL;

-- CreateTable
CREATE TABLE "challenge_server_workers" (
    "id" TEXT NOT NULL,
    "backend" TEXT NOT NULL DEFAULT 'docker',
    "address" TEXT NOT NULL,
    "capacity" INTEGER NOT NULL DEFAULT 100,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_server_workers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "challenge_server_instances_worker_id_idx" ON "challenge_server_instances"("worker_id");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_server_instances_job_id_generation_slot_key" ON "challenge_server_instances"("job_id", "generation", "slot");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_server_instances_job_id_team_id_key" ON "challenge_server_instances"("job_id", "team_id");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_server_jobs_challenge_id_key" ON "challenge_server_jobs"("challenge_id");

-- AddForeignKey
ALTER TABLE "challenge_server_jobs" ADD CONSTRAINT "challenge_server_jobs_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_server_instances" ADD CONSTRAINT "challenge_server_instances_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
