-- CreateTable
CREATE TABLE "team_attempt_totals" (
    "team_id" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "team_attempt_totals_pkey" PRIMARY KEY ("team_id")
);

-- CreateTable
CREATE TABLE "user_attempt_totals" (
    "user_id" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "user_attempt_totals_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "team_attempt_totals" ADD CONSTRAINT "team_attempt_totals_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_attempt_totals" ADD CONSTRAINT "user_attempt_totals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The totals of the attempts recorded so far.
INSERT INTO "team_attempt_totals" ("team_id", "n") SELECT "team_id", count(*)::int FROM "incorrect_attempts" GROUP BY "team_id";
INSERT INTO "user_attempt_totals" ("user_id", "n") SELECT "user_id", count(*)::int FROM "incorrect_attempts" GROUP BY "user_id";

-- Attempts deleted (by a challenge, team or user deletion cascading) leave the totals. The
-- statements that record attempts raise the totals themselves (challenges/attempt-writer.ts).
CREATE FUNCTION "incorrect_attempts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "team_attempt_totals" t SET "n" = GREATEST(t."n" - d.n, 0)
    FROM (SELECT "team_id", count(*)::int AS n FROM gone GROUP BY "team_id" ORDER BY "team_id") d WHERE t."team_id" = d."team_id";
  UPDATE "user_attempt_totals" u SET "n" = GREATEST(u."n" - d.n, 0)
    FROM (SELECT "user_id", count(*)::int AS n FROM gone GROUP BY "user_id" ORDER BY "user_id") d WHERE u."user_id" = d."user_id";
  RETURN NULL;
END $$;

CREATE TRIGGER "incorrect_attempts_deleted" AFTER DELETE ON "incorrect_attempts"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "incorrect_attempts_deleted"();
