import { describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";

const { server } = await useContractServer();

describe("transport", () => {
  it("answers a path without its trailing slash exactly as with it, without redirecting", async () => {
    const withSlash = await server.api("GET", "/config/flag_prefix/");
    const without = await server.api("GET", "/config/flag_prefix");
    expect(without.status).toBe(200);
    expect(without.body).toEqual(withSlash.body);
  });

  it("is 404 not_found in the envelope for an unknown path", async () => {
    const res = await server.api("GET", "/no/such/path/");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ s: false, m: "not_found", d: "" });
  });

  it("is 405 method_not_allowed for a method the path does not serve", async () => {
    const res = await server.api("DELETE", "/stats/version/");
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ s: false, m: "method_not_allowed", d: "" });
  });

  it("is 400 parse_error for a body that is not JSON", async () => {
    const res = await server.api("POST", "/config/event_name/", { payload: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ s: false, m: "parse_error", d: "" });
  });

  it("is 415 unsupported_media_type for a body that is not JSON by type", async () => {
    const res = await server.api("POST", "/config/event_name/", { payload: "value=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.body.m).toBe("unsupported_media_type");
  });

  it("accepts JSON with any charset", async () => {
    const res = await server.api("POST", "/config/event_name/", { payload: "{}", headers: { "content-type": "application/json; charset=latin1" } });
    expect(res.status).toBe(401);
  });

  it("is 401 authentication_failed for a token that does not exist", async () => {
    const res = await server.api("GET", "/config/", { token: "0".repeat(64) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ s: false, m: "authentication_failed", d: "" });
  });

  it("is 401 authentication_failed for an Authorization header that is not a token", async () => {
    const res = await server.api("GET", "/config/", { headers: { authorization: "Bearer abc" } });
    expect(res.status).toBe(401);
    expect(res.body.m).toBe("authentication_failed");
  });
});

describe("web app", () => {
  it("serves index.html for page URLs (history fallback)", async () => {
    const res = await server.app.inject({ method: "GET", url: "/campaign/some-category" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
  });
});
