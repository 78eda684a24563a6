import { createUser } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../../testing.ts";

const { server } = await useContractServer();

describe("GET /stats/version/", () => {
  it("answers the version", async () => {
    const res = await server.api("GET", "/stats/version/");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ s: true, m: "", d: { commit_hash: "test", version: "test" } });
  });
});

describe("GET /stats/countdown/", () => {
  it("answers the gates in epoch seconds, null when unset, and the server time in ISO 8601", async () => {
    server.world.setNow(1_700_000_000);
    const staff = await createUser(server.world, { isStaff: true });
    await server.api("POST", "/config/start_time/", { token: staff.token, body: { value: 1_700_000_600 } });
    const res = await server.api("GET", "/stats/countdown/");
    expect(res.body.d).toEqual({
      countdown_timestamp: 1_700_000_600,
      registration_open: null,
      competition_end: null,
      server_timestamp: "2023-11-14T22:13:20.000Z",
    });
    // RACTF's client learns its clock offset with `new Date(server_timestamp)`.
    expect(new Date(res.body.d.server_timestamp).getTime()).toBe(1_700_000_000_000);
    server.world.setNow(null);
  });
});
