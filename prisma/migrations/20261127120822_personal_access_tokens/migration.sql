-- AlterTable
ALTER TABLE "auth_tokens" ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "name" TEXT;
