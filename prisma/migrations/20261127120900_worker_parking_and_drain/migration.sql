-- AlterTable
ALTER TABLE "challenge_server_workers" ADD COLUMN     "draining" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "engine" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "engine_grace" INTEGER NOT NULL DEFAULT 10,
ADD COLUMN     "engine_lost_at" TIMESTAMP(3),
ADD COLUMN     "parked_until" TIMESTAMP(3);
