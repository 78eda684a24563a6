import { describe, expect, it } from "vitest";
import { loadEnv } from "./env.ts";

describe("EMBEDDED_DATABASE_PORT", () => {
  it("sets the embedded PostgreSQL's port, unset by default", () => {
    expect(loadEnv({ EMBEDDED_DATABASE_PORT: "55432" }).EMBEDDED_DATABASE_PORT).toBe(55432);
    expect(loadEnv({}).EMBEDDED_DATABASE_PORT).toBeUndefined();
  });

  it("refuses a value that is not a port, by name", () => {
    expect(() => loadEnv({ EMBEDDED_DATABASE_PORT: "lots" })).toThrow(/EMBEDDED_DATABASE_PORT: must be a port number/);
    expect(() => loadEnv({ EMBEDDED_DATABASE_PORT: "70000" })).toThrow(/EMBEDDED_DATABASE_PORT/);
  });
});
