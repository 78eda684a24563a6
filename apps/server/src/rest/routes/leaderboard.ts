import { ctftimeFeed, leaderboardGraph, leaderboardMatrix, teamLeaderboard, userLeaderboard } from "@flagship/api";
import { ZPageInput } from "@flagship/shared";
import { pageBody, type RestRoutes } from "../adapter.ts";

/**
 * A hidden scoreboard answers 200 with `d: {}`. REST readers (scripts, scrapers) are held to the
 * `leaderboard` rate; the web app reads the same cached boards over tRPC as it polls.
 */
export function leaderboardRoutes(rest: RestRoutes): void {
  rest.route("/leaderboard/user/", {
    GET: async ({ ctx, query, request }) => {
      await ctx.throttle.check(ctx, "leaderboard");
      const input = ZPageInput.parse(query);
      const page = await userLeaderboard(ctx, input);
      return { d: "hidden" in page ? {} : pageBody(request, page, input) };
    },
  });
  rest.route("/leaderboard/team/", {
    GET: async ({ ctx, query, request }) => {
      await ctx.throttle.check(ctx, "leaderboard");
      const input = ZPageInput.parse(query);
      const page = await teamLeaderboard(ctx, input);
      return { d: "hidden" in page ? {} : pageBody(request, page, input) };
    },
  });
  rest.route("/leaderboard/graph/", {
    GET: async ({ ctx }) => {
      await ctx.throttle.check(ctx, "leaderboard");
      const graph = await leaderboardGraph(ctx);
      if ("hidden" in graph) return { d: {} };
      const strip = <T extends object>(rows: T[], key: "user_id" | "team_id") =>
        rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== key)));
      return { d: { user: strip(graph.user, "user_id"), ...(graph.team && { team: strip(graph.team, "team_id") }) } };
    },
  });
  rest.route("/leaderboard/matrix/", {
    GET: async ({ ctx, query, request }) => {
      await ctx.throttle.check(ctx, "leaderboard");
      const input = ZPageInput.parse(query);
      const page = await leaderboardMatrix(ctx, input);
      return { d: "hidden" in page ? {} : pageBody(request, page, input) };
    },
  });
  rest.route("/leaderboard/ctftime/", { GET: async ({ ctx }) => ({ raw: await ctftimeFeed(ctx) }) });
}
