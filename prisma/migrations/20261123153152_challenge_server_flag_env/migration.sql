-- AlterTable
ALTER TABLE "challenge_server_jobs" ADD COLUMN     "flag_env" TEXT;
