import { describe, expect, it } from "vitest";
import { loadWorkerEnv } from "./env.ts";

const REQUIRED = { DATABASE_URL: "postgresql://flagship@127.0.0.1:5432/flagship", REDIS_URL: "redis://127.0.0.1:6379" };

describe("a worker's METRICS_PORT", () => {
  it("opens no listener when unset, a given port, or 0: a free port the system picks", () => {
    expect(loadWorkerEnv(REQUIRED).METRICS_PORT).toBeUndefined();
    expect(loadWorkerEnv({ ...REQUIRED, METRICS_PORT: "" }).METRICS_PORT).toBeUndefined();
    expect(loadWorkerEnv({ ...REQUIRED, METRICS_PORT: "9092" }).METRICS_PORT).toBe(9092);
    expect(loadWorkerEnv({ ...REQUIRED, METRICS_PORT: "0" }).METRICS_PORT).toBe(0);
  });

  it("refuses a value that is not a port, by name", () => {
    expect(() => loadWorkerEnv({ ...REQUIRED, METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT: must be a port number/);
    expect(() => loadWorkerEnv({ ...REQUIRED, METRICS_PORT: "-1" })).toThrow(/METRICS_PORT/);
    expect(() => loadWorkerEnv({ ...REQUIRED, METRICS_PORT: "65536" })).toThrow(/METRICS_PORT/);
  });
});
