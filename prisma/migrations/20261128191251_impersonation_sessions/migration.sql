-- Impersonations begun before this change are not linked to the session that started them, and
-- may have been started with a personal access token: they end here (staff start them again).
DELETE FROM "auth_tokens" WHERE "impersonator_id" IS NOT NULL;

-- AlterTable
ALTER TABLE "auth_tokens" ADD COLUMN     "session_id" INTEGER;

-- CreateIndex
CREATE INDEX "auth_tokens_session_id_idx" ON "auth_tokens"("session_id");

-- AddForeignKey
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "auth_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
