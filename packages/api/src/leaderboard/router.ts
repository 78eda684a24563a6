import { ZGroupFilter, ZPageInput } from "@flagship/shared";
import { publicProcedure, router, staffProcedure } from "../trpc.ts";
import { latestFirstBloods, ZFirstBloodsInput } from "./first-bloods.ts";
import { leaderboardGraph, leaderboardMatrix, teamLeaderboard, userLeaderboard } from "./leaderboard.ts";
import { revealBoard } from "./reveal-board.ts";

export const leaderboardRouter = router({
  users: publicProcedure.input(ZPageInput).query(({ ctx, input }) => userLeaderboard(ctx, input)),
  teams: publicProcedure.input(ZPageInput.extend(ZGroupFilter.shape)).query(({ ctx, input }) => teamLeaderboard(ctx, input, input)),
  graph: publicProcedure.input(ZGroupFilter.optional()).query(({ ctx, input }) => leaderboardGraph(ctx, input ?? {})),
  firstBloods: publicProcedure.input(ZFirstBloodsInput.optional()).query(({ ctx, input }) => latestFirstBloods(ctx, input ?? ZFirstBloodsInput.parse({}))),
  matrix: publicProcedure.input(ZPageInput).query(({ ctx, input }) => leaderboardMatrix(ctx, input)),
  reveal: staffProcedure.mutation(({ ctx }) => revealBoard(ctx)),
});
