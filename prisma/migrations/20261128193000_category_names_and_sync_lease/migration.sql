-- Categories of one name made before names were unique keep their challenges under a name that
-- tells them apart (the later ones get their id appended), so the index can be built.
UPDATE "categories" AS c
SET "name" = c."name" || ' (' || c."id" || ')'
WHERE EXISTS (SELECT 1 FROM "categories" AS d WHERE d."name" = c."name" AND d."id" < c."id");

-- CreateIndex
CREATE UNIQUE INDEX "categories_name_key" ON "categories"("name");

-- CreateTable
CREATE TABLE "challenge_sync_leases" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "token_hash" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "holder" TEXT NOT NULL DEFAULT '',
    "acquired_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "challenge_sync_leases_pkey" PRIMARY KEY ("id")
);
