import { startDatabase } from "../harness.ts";
const db = await startDatabase("/tmp/benchseed");
const users = (await db.db.user.findMany({ select: { id: true }, take: 2000 })).map((u) => u.id);
async function time(label: string, f: (id: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await f(users[i % users.length]!);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  const N = 2000;
  for (let i = 0; i < N; i++) await f(users[i % users.length]!);
  const c = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(`${label}: ${((c.user + c.system) / 1000 / N).toFixed(3)} ms CPU/query, ${(t / N).toFixed(3)} ms wall`);
}
await time("count (prisma)", (id) => db.db.incorrectAttempt.count({ where: { userId: id } }));
await time("count (raw)", (id) => db.db.$queryRaw`SELECT count(*)::int AS n FROM incorrect_attempts WHERE user_id = ${id}`);
await time("user findUnique", (id) => db.db.user.findUnique({ where: { id }, select: { id: true, username: true, teamId: true } }));
await time("solves findMany", (id) => db.db.solve.findMany({ where: { userId: id }, select: { id: true, challengeId: true, timestamp: true, challenge: { select: { name: true } } } }));
await db.stop();
