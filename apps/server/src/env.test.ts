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

describe("HASH_MAX_WAIT_MS", () => {
  it("bounds a hash's expected wait, 10 s by default", () => {
    expect(loadEnv({}).HASH_MAX_WAIT_MS).toBe(10_000);
    expect(loadEnv({ HASH_MAX_WAIT_MS: "2500" }).HASH_MAX_WAIT_MS).toBe(2500);
  });

  it("refuses a value that is not a whole number of milliseconds, by name", () => {
    expect(() => loadEnv({ HASH_MAX_WAIT_MS: "soon" })).toThrow(/HASH_MAX_WAIT_MS: must be a number/);
    expect(() => loadEnv({ HASH_MAX_WAIT_MS: "-1" })).toThrow(/HASH_MAX_WAIT_MS/);
    expect(() => loadEnv({ HASH_MAX_WAIT_MS: "1.5" })).toThrow(/HASH_MAX_WAIT_MS/);
  });
});

describe("METRICS_PORT and METRICS_HOST", () => {
  it("open no metrics listener unless a port is given; loopback by default", () => {
    expect(loadEnv({}).METRICS_PORT).toBeUndefined();
    expect(loadEnv({ METRICS_PORT: "" }).METRICS_PORT).toBeUndefined();
    expect(loadEnv({ METRICS_PORT: "9091" }).METRICS_PORT).toBe(9091);
    expect(loadEnv({}).METRICS_HOST).toBe("127.0.0.1");
  });

  it("refuses a value that is not a port, by name", () => {
    expect(() => loadEnv({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT: must be a port number/);
    expect(() => loadEnv({ METRICS_PORT: "0" })).toThrow(/METRICS_PORT/);
  });
});

describe("SERVER_RENDERING_MACHINE_LOAD", () => {
  it("lets the machine's load shrink the draw budget unless turned off", () => {
    expect(loadEnv({}).SERVER_RENDERING_MACHINE_LOAD).toBe("on");
    expect(loadEnv({ SERVER_RENDERING_MACHINE_LOAD: "off" }).SERVER_RENDERING_MACHINE_LOAD).toBe("off");
  });

  it("refuses anything but on or off, by name", () => {
    expect(() => loadEnv({ SERVER_RENDERING_MACHINE_LOAD: "yes" })).toThrow(/SERVER_RENDERING_MACHINE_LOAD: must be on or off/);
  });
});
