import {
  AppError,
  PLAYER_CSV_COLUMNS,
  TEAM_CSV_COLUMNS,
  TEAM_LEADERBOARD_CSV_COLUMNS,
  toCsv,
  USER_LEADERBOARD_CSV_COLUMNS,
} from "@flagship/shared";
import { z } from "zod";
import type { StaffContext } from "../guards.ts";
import { boardCache } from "../leaderboard/board.ts";

/**
 * CSV exports for staff, built on the server in one read each (a download, not a page). An
 * empty list answers not_found with the spec's message, which the page shows as it is.
 */

export interface CsvFile {
  filename: string;
  csv: string;
  rows: number;
}

export async function exportPlayersCsv(ctx: StaffContext): Promise<CsvFile> {
  const users = await ctx.db.user.findMany({
    select: {
      id: true,
      username: true,
      email: true,
      emailVerified: true,
      dateJoined: true,
      isActive: true,
      isVisible: true,
      isStaff: true,
      teamId: true,
      points: true,
      leaderboardPoints: true,
      reddit: true,
      twitter: true,
      discord: true,
      discordid: true,
      bio: true,
      _count: { select: { solves: true } },
    },
    orderBy: { id: "asc" },
  });
  if (users.length === 0) throw new AppError("not_found", { message: "No users to export!" });
  const rows = users.map((u) => [
    u.id,
    u.username,
    u.email,
    u.emailVerified,
    u.dateJoined.toISOString(),
    u.isActive,
    u.isVisible,
    u.isStaff,
    u.teamId,
    u.points,
    u.leaderboardPoints,
    u.reddit,
    u.twitter,
    u.discord,
    u.discordid,
    u.bio,
    u._count.solves,
  ]);
  return { filename: "players.csv", csv: toCsv(PLAYER_CSV_COLUMNS, rows), rows: rows.length };
}

/** Teams with their secrets: staff export them to hand out or move an event. */
export async function exportTeamsCsv(ctx: StaffContext): Promise<CsvFile> {
  const teams = await ctx.db.team.findMany({
    select: {
      id: true,
      name: true,
      isVisible: true,
      ownerId: true,
      password: true,
      members: { select: { id: true, username: true }, orderBy: { id: "asc" } },
      _count: { select: { solves: true } },
    },
    orderBy: { id: "asc" },
  });
  if (teams.length === 0) throw new AppError("not_found", { message: "No teams to export!" });
  const rows = teams.map((t) => [t.id, t.name, t.isVisible, t.ownerId, t.password, t.members.map((m) => m.username).join(" "), t._count.solves]);
  return { filename: "teams.csv", csv: toCsv(TEAM_CSV_COLUMNS, rows), rows: rows.length };
}

export const ZLeaderboardCsvInput = z.object({ kind: z.enum(["team", "user"]) });

/** The live standings (what staff see, freeze or not), in leaderboard order. */
export async function exportLeaderboardCsv(ctx: StaffContext, input: unknown): Promise<CsvFile> {
  const parsed = ZLeaderboardCsvInput.safeParse(input);
  if (!parsed.success) throw AppError.field("invalid", "kind", "Must be team or user.");
  const { kind } = parsed.data;
  const board = await boardCache(ctx).get(ctx.db, kind, null);
  if (board.length === 0) throw new AppError("not_found", { message: kind === "team" ? "No teams to export!" : "No users to export!" });
  const header = kind === "team" ? TEAM_LEADERBOARD_CSV_COLUMNS : USER_LEADERBOARD_CSV_COLUMNS;
  const rows = board.map((entry) => [entry.name, entry.leaderboard_points]);
  return { filename: `${kind}-leaderboard.csv`, csv: toCsv(header, rows), rows: rows.length };
}
