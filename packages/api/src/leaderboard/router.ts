import { ZGroupFilter, ZPageInput } from "@flagship/shared";
import { z } from "zod";
import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { latestFirstBloods, ZFirstBloodsInput } from "./first-bloods.ts";
import { leaderboardGraph, leaderboardMatrix, teamLeaderboard, userLeaderboard } from "./leaderboard.ts";
import { revealBoard } from "./reveal-board.ts";

/** Staff's choice of the players' board over the live one (see BoardFilter); ignored for players, who only have theirs. */
const ZPlayersBoard = z.object({ players: z.boolean().optional() });

export const leaderboardRouter = router({
  users: publicProcedure.input(ZPageInput.extend(ZPlayersBoard.shape)).query(({ ctx, input }) => userLeaderboard(ctx, input, input)),
  teams: publicProcedure.input(ZPageInput.extend(ZGroupFilter.shape).extend(ZPlayersBoard.shape)).query(({ ctx, input }) => teamLeaderboard(ctx, input, input)),
  graph: publicProcedure.input(ZGroupFilter.extend(ZPlayersBoard.shape).optional()).query(({ ctx, input }) => leaderboardGraph(ctx, input ?? {})),
  firstBloods: publicProcedure.input(ZFirstBloodsInput.optional()).query(({ ctx, input }) => latestFirstBloods(ctx, input ?? ZFirstBloodsInput.parse({}))),
  matrix: publicProcedure.input(ZPageInput).query(({ ctx, input }) => leaderboardMatrix(ctx, input)),
  reveal: staffProcedure.mutation(({ ctx }) => revealBoard(ctx)),
});
