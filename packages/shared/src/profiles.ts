import { z } from "zod";
import { LIMITS } from "./constants.ts";
import { ZPageInput } from "./pagination.ts";

/** Orderings the member list accepts (`?ordering=`, a leading dash for descending). */
export const MEMBER_ORDERINGS = ["username", "-username", "date_joined", "-date_joined", "leaderboard_points", "-leaderboard_points", "id", "-id"] as const;
export type MemberOrdering = (typeof MEMBER_ORDERINGS)[number];

/** GET /member/?search=&ordering= : unknown orderings fall back to the spec's username order. */
const flagFilter = z
  .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
  .optional()
  .catch(undefined);

export const ZMemberListInput = ZPageInput.extend({
  search: z.string().trim().max(100).optional().catch(undefined),
  ordering: z.enum(MEMBER_ORDERINGS).optional().catch(undefined),
  /** Staff's advanced search: only members with these flags (ignored for everyone else). */
  is_staff: flagFilter,
  is_active: flagFilter,
  is_visible: flagFilter,
  email_verified: flagFilter,
  has_team: flagFilter,
});
export type MemberListInput = z.infer<typeof ZMemberListInput>;

const profileText = (max: number) => z.string().trim().max(max);

/** What staff may change on any member (PATCH /member/{id}/). */
export const ZStaffUpdateMemberInput = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.username)
    .refine((v) => ![...v].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127), "Invalid username.")
    .optional(),
  email: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .refine((v) => /^\S+@\S+\.\S+$/.test(v), "Invalid email")
    .optional(),
  bio: profileText(LIMITS.bio).optional(),
  discord: profileText(LIMITS.discord).optional(),
  discordid: profileText(LIMITS.discordId).regex(/^\d*$/, "A Discord id is digits only.").optional(),
  twitter: profileText(LIMITS.twitter).optional(),
  reddit: profileText(LIMITS.reddit).optional(),
  is_staff: z.boolean().optional(),
  is_verified: z.boolean().optional(),
  state_actor: z.boolean().optional(),
  is_visible: z.boolean().optional(),
  is_active: z.boolean().optional(),
  team: z.number().int().positive().nullable().optional(),
});
export type StaffUpdateMemberInput = z.infer<typeof ZStaffUpdateMemberInput>;

export interface ScorePoint {
  timestamp: string;
  points: number;
}

/**
 * Score over time: score changes (solves, decay, hint penalties...) turned into a running total,
 * oldest first, with one point per change.
 */
export function cumulativeScore(changes: readonly { points: number; timestamp: Date | string }[]): ScorePoint[] {
  const sorted = changes
    .map((c) => ({ points: c.points, at: new Date(c.timestamp) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  let total = 0;
  return sorted.map((c) => {
    total += c.points;
    return { timestamp: c.at.toISOString(), points: total };
  });
}

export interface CategoryProgress {
  id: number;
  name: string;
  solved: number;
  total: number;
  points: number;
}

/**
 * Per-category progress: every category with at least one challenge, with how many of its
 * challenges were solved and the points they brought, in the categories' order.
 */
export function categoryProgress(
  categories: readonly { id: number; name: string; total: number }[],
  solves: readonly { categoryId: number; points: number }[],
): CategoryProgress[] {
  const byCategory = new Map<number, { solved: number; points: number }>();
  for (const solve of solves) {
    const entry = byCategory.get(solve.categoryId) ?? { solved: 0, points: 0 };
    entry.solved += 1;
    entry.points += solve.points;
    byCategory.set(solve.categoryId, entry);
  }
  return categories
    .filter((c) => c.total > 0 || byCategory.has(c.id))
    .map((c) => ({ id: c.id, name: c.name, total: Math.max(c.total, byCategory.get(c.id)?.solved ?? 0), ...(byCategory.get(c.id) ?? { solved: 0, points: 0 }) }));
}

/** A solve's worth: its points less the hint penalty, never below zero. */
export function solveValue(solve: { points: number; penalty: number }): number {
  return Math.max(solve.points - solve.penalty, 0);
}
