-- AlterTable
ALTER TABLE "challenge_server_jobs" ADD COLUMN     "engine_key" TEXT NOT NULL DEFAULT '';
