import { describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";

const { server } = await useContractServer();

describe("liveness and readiness", () => {
  it("answers /healthz while the process serves and /readyz while the database answers", async () => {
    const live = await server.app.inject({ method: "GET", url: "/healthz" });
    expect([live.statusCode, live.json(), live.headers["cache-control"]]).toEqual([200, { ok: true }, "no-store"]);
    const ready = await server.app.inject({ method: "GET", url: "/readyz" });
    expect([ready.statusCode, ready.json()]).toEqual([200, { ok: true }]);
  });

  it("is not ready once the database is gone", async () => {
    const { createTestServer: fresh } = await import("../testing.ts");
    const other = await fresh();
    await other.world.services.db.$disconnect();
    await other.world.database.close();
    const ready = await other.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers["retry-after"]).toBe("1");
    expect(ready.json()).toEqual({ ok: false, reason: "database unavailable" });
    await other.app.close();
  });
});
