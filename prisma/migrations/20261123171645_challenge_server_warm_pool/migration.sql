-- AlterTable
ALTER TABLE "challenge_server_instances" ADD COLUMN     "pooled" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "challenge_server_jobs" ADD COLUMN     "warm" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "challenge_server_instances_job_id_pooled_status_idx" ON "challenge_server_instances"("job_id", "pooled", "status");
