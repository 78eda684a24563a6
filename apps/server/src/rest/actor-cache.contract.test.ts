import { mayChangeActors } from "@flagship/api";
import { createUser, TEST_PASSWORD } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";

const { server, staff } = await useContractServer();

describe("cached actors follow changes at once", () => {
  it("a logged-out token stops working on the very next request", async () => {
    const user = await createUser(server.world);
    expect((await server.api("GET", "/member/self/", { token: user.token })).status).toBe(200);
    expect((await server.api("POST", "/auth/logout/", { token: user.token })).status).toBe(200);
    const after = await server.api("GET", "/member/self/", { token: user.token });
    expect(after.status).toBe(401);
    expect(after.body.m).toBe("authentication_failed");
  });

  it("joining a team shows in the next request's actor", async () => {
    const owner = await createUser(server.world);
    const joiner = await createUser(server.world);
    await server.api("POST", "/team/create/", { token: owner.token, body: { name: "Cache Busters", password: "cache-secret-1" } });
    // The joiner's actor (no team) is now cached.
    const before = await server.api("POST", "/challenges/submit_flag/", { token: joiner.token, body: { challenge: 1, flag: "x" } });
    expect(before.body.m).toBe("permission_denied");
    expect((await server.api("POST", "/team/join/", { token: joiner.token, body: { name: "Cache Busters", password: "cache-secret-1" } })).status).toBe(200);
    const after = await server.api("POST", "/challenges/submit_flag/", { token: joiner.token, body: { challenge: 999_999, flag: "x" } });
    expect(after.body.m).toBe("not_found");
  });

  it("a login leaves other cached actors alone, and its own token works at once", async () => {
    const user = await createUser(server.world);
    const other = await createUser(server.world);
    expect((await server.api("GET", "/member/self/", { token: other.token })).status).toBe(200);
    const login = await server.api("POST", "/auth/login/", { body: { username: user.username, password: TEST_PASSWORD } });
    expect(login.status).toBe(200);
    expect((await server.api("GET", "/member/self/", { token: login.body.d.token })).body.d).toMatchObject({ id: user.id });
    expect((await server.api("GET", "/member/self/", { token: other.token })).body.d).toMatchObject({ id: other.id });
  });

  it("a staff edit of a member applies to their next request", async () => {
    const user = await createUser(server.world);
    expect((await server.api("GET", "/member/self/", { token: user.token })).status).toBe(200);
    expect((await server.api("PATCH", `/member/${user.id}/`, { token: staff.token, body: { is_active: false } })).status).toBe(200);
    expect((await server.api("GET", "/member/self/", { token: user.token })).status).toBe(401);
  });
});

describe("which requests may change actors", () => {
  it("every mutation except the game's own", () => {
    expect(mayChangeActors("GET", "/api/v2/member/self/")).toBe(false);
    expect(mayChangeActors("POST", "/api/v2/auth/logout/")).toBe(true);
    expect(mayChangeActors("POST", "/api/v2/challenges/submit_flag/")).toBe(false);
    // A login only adds a token: at the start of an event it must not empty every copy's caches.
    expect(mayChangeActors("POST", "/api/v2/auth/login/")).toBe(false);
    expect(mayChangeActors("POST", "/api/v2/auth/login_2fa")).toBe(false);
    expect(mayChangeActors("POST", "/trpc/auth.login")).toBe(false);
    expect(mayChangeActors("POST", "/api/v2/auth/register/")).toBe(true);
    expect(mayChangeActors("POST", "/api/v2/hints/use")).toBe(false);
    expect(mayChangeActors("PATCH", "/api/v2/challenges/3/")).toBe(true);
    expect(mayChangeActors("POST", "/trpc/challenges.submitFlag,challenges.vote?batch=1")).toBe(false);
    expect(mayChangeActors("POST", "/trpc/challenges.submitFlag,teams.join?batch=1")).toBe(true);
  });
});
