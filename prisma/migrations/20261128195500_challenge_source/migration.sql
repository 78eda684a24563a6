-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "source" TEXT NOT NULL DEFAULT '';
