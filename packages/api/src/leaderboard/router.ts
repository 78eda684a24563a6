import { ZPageInput } from "@flagship/shared";
import { publicProcedure, router } from "../trpc.ts";
import { leaderboardGraph, leaderboardMatrix, teamLeaderboard, userLeaderboard } from "./leaderboard.ts";

export const leaderboardRouter = router({
  users: publicProcedure.input(ZPageInput).query(({ ctx, input }) => userLeaderboard(ctx, input)),
  teams: publicProcedure.input(ZPageInput).query(({ ctx, input }) => teamLeaderboard(ctx, input)),
  graph: publicProcedure.query(({ ctx }) => leaderboardGraph(ctx)),
  matrix: publicProcedure.input(ZPageInput).query(({ ctx, input }) => leaderboardMatrix(ctx, input)),
});
