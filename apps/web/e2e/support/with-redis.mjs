// Runs a command with a real redis-server of its own: starts redis-server on a free loopback
// port (no persistence), runs the command with REDIS_URL pointing at it, and stops both together.
//   node with-redis.mjs node apps/server/dist/main.js
import { spawn } from "node:child_process";
import net from "node:net";

const free = await new Promise((resolve, reject) => {
  const server = net.createServer();
  server.once("error", reject);
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const redis = spawn("redis-server", ["--port", String(free), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
for (let i = 0; i < 100; i++) {
  const up = await new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port: free }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
  if (up) break;
  await new Promise((r) => setTimeout(r, 100));
}
const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${free}` } });
const stop = (signal) => {
  child.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
child.on("exit", (code) => {
  redis.kill("SIGTERM");
  process.exit(code ?? 0);
});
