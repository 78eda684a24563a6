import type { Server } from "../harness.ts";
import type { Seeded } from "../seed.ts";

/** Sends one correct flag the seed has not handed out yet; true when it was accepted. */
export async function solveOne(server: Server, seeded: Seeded): Promise<boolean | null> {
  const next = seeded.takeSolve();
  if (!next) return null;
  const response = await fetch(`${server.baseUrl}/api/v2/challenges/submit_flag/`, {
    method: "POST",
    headers: { authorization: `Token ${next.token}`, "content-type": "application/json" },
    body: JSON.stringify({ challenge: next.challenge, flag: next.flag }),
  });
  const body = (await response.json()) as { m?: string };
  return response.ok && body.m === "correct_flag";
}

/** Correct flags at a steady rate in the background until stop(). */
export function startSolving(server: Server, seeded: Seeded, perSecond: number): { stop(): Promise<{ solved: number; failed: number; perSecond: number }> } {
  let solved = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  const timer = setInterval(() => {
    const p = solveOne(server, seeded).then(
      (ok) => {
        if (ok) solved += 1;
        else if (ok === false) failed += 1;
      },
      () => {
        failed += 1;
      },
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { solved, failed, perSecond: Math.round(solved / ((performance.now() - started) / 1000)) };
    },
  };
}
