import { describe, expect, it } from "vitest";
import { mayChangeActors } from "./actor-cache.ts";

describe("mayChangeActors", () => {
  it("leaves the caches alone for reads, except desudo, which deletes a token", () => {
    expect(mayChangeActors("GET", "/api/v2/leaderboard/team/?limit=100")).toBe(false);
    expect(mayChangeActors("HEAD", "/api/v2/member/self/")).toBe(false);
    expect(mayChangeActors("OPTIONS", "/api/v2/auth/login/")).toBe(false);
    expect(mayChangeActors("GET", "/api/v2/auth/desudo/")).toBe(true);
    expect(mayChangeActors("GET", "/api/v2/auth/desudo")).toBe(true);
    expect(mayChangeActors("GET", "/api/v2/auth/desudo/?x=1")).toBe(true);
    expect(mayChangeActors("GET", "/api/v2/auth/desudo-not")).toBe(false);
  });

  it("leaves them alone for the game's own mutations and logins, and drops them for every other write", () => {
    expect(mayChangeActors("POST", "/api/v2/challenges/submit_flag/")).toBe(false);
    expect(mayChangeActors("POST", "/api/v2/auth/login")).toBe(false);
    expect(mayChangeActors("POST", "/trpc/challenges.submitFlag,hints.use")).toBe(false);
    expect(mayChangeActors("POST", "/trpc/challenges.submitFlag,teams.leave")).toBe(true);
    expect(mayChangeActors("PATCH", "/api/v2/member/self/")).toBe(true);
    expect(mayChangeActors("DELETE", "/api/v2/teams/3/")).toBe(true);
  });
});
