-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "in_nav" BOOLEAN NOT NULL DEFAULT false;
