-- A challenge released at a set time: hidden from players until then.
ALTER TABLE "challenges" ADD COLUMN "scheduled_at" TIMESTAMP(3);
