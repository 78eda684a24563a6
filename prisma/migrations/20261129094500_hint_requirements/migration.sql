-- Hints a team must have used before it may use this one (ids of hints of the same challenge).
ALTER TABLE "hints" ADD COLUMN "requirements" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[];
