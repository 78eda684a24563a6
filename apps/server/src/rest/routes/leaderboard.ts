import { ctftimeFeed, leaderboardGraph, leaderboardMatrix, teamLeaderboard, userLeaderboard } from "@flagship/api";
import { type Page, type PageInput, parseInput, ZGroupFilter, ZPageInput } from "@flagship/shared";
import type { FastifyRequest } from "fastify";
import { pageBody, type RestResult, type RestRoutes } from "../adapter.ts";

// Serialised envelopes of cached board pages, per page object and request URL (the links in
// `next`/`previous` are absolute): a hot page costs no JSON work at all.
const serialised = new WeakMap<object, Map<string, Buffer>>();

function pageEnvelope(request: FastifyRequest, page: Page<unknown>, input: PageInput): RestResult {
  let byUrl = serialised.get(page);
  if (!byUrl) serialised.set(page, (byUrl = new Map()));
  const key = `${request.host}${request.url}`;
  let json = byUrl.get(key);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify({ s: true, m: "", d: pageBody(request, page, input) }));
    if (byUrl.size < 64) byUrl.set(key, json);
  }
  return { json };
}

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
      return "hidden" in page ? { d: {} } : pageEnvelope(request, page, input);
    },
  });
  rest.route("/leaderboard/team/", {
    GET: async ({ ctx, query, request }) => {
      await ctx.throttle.check(ctx, "leaderboard");
      const input = ZPageInput.parse(query);
      const page = await teamLeaderboard(ctx, input, parseInput(ZGroupFilter, { group: query.group || undefined }));
      return "hidden" in page ? { d: {} } : pageEnvelope(request, page, input);
    },
  });
  rest.route("/leaderboard/graph/", {
    GET: async ({ ctx, query }) => {
      await ctx.throttle.check(ctx, "leaderboard");
      const graph = await leaderboardGraph(ctx, parseInput(ZGroupFilter, { group: query.group || undefined }));
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
  rest.route("/leaderboard/ctftime/", { GET: async ({ ctx, query }) => ({ raw: await ctftimeFeed(ctx, parseInput(ZGroupFilter, { group: query.group || undefined })) }) });
}
