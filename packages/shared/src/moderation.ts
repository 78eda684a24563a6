import { z } from "zod";
import { MAX_FLAG_LENGTH } from "./flags.ts";

const id = z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number().int().positive());

/**
 * Points staff give a team (or a player, in a solo event): negative for a penalty. The reason is
 * shown to the team beside the points.
 */
export const ZGiveAwardInput = z
  .object({
    team: id.optional(),
    user: id.optional(),
    points: z.number().int().min(-1_000_000).max(1_000_000).refine((n) => n !== 0, "Give or take at least one point."),
    reason: z.string().trim().min(1).max(200),
  })
  .refine((v) => (v.team === undefined) !== (v.user === undefined), { message: "Choose a team or a player.", path: ["team"] });
export type GiveAwardInput = z.infer<typeof ZGiveAwardInput>;

/** A challenge marked solved for a team by staff, credited to one of its members. */
export const ZMarkSolvedInput = z.object({
  team: id,
  challenge: id,
  /** The member credited; the team's owner (or first member) when left out. */
  user: id.optional(),
  /** Whether this solve may take first blood; a staff-made solve does not unless staff say so. */
  first_blood: z.boolean().default(false),
});
export type MarkSolvedInput = z.infer<typeof ZMarkSolvedInput>;

/** A flag tried by staff against a challenge; the team matters for per-team flags only. */
export const ZTestFlagInput = z.object({
  challenge: id,
  flag: z.union([z.string().min(1).max(MAX_FLAG_LENGTH), z.array(z.number()).length(2)]),
  team: id.optional(),
});
export type TestFlagInput = z.infer<typeof ZTestFlagInput>;

/** The submissions log's filters; `correct` undefined shows both. */
export const ZSubmissionFilter = z.object({
  team: id.optional(),
  user: id.optional(),
  challenge: id.optional(),
  correct: z.boolean().optional(),
});
export type SubmissionFilter = z.infer<typeof ZSubmissionFilter>;

export const SUBMISSIONS_CSV_COLUMNS = ["time", "correct", "team_id", "team", "user_id", "user", "challenge_id", "challenge", "flag", "ip", "marked_by"] as const;
