// `npm start`: builds the web app and the compiled server and worker, then starts the server in
// production mode. Without DATABASE_URL the server runs its own embedded PostgreSQL under
// DATA_DIR (default ./data).
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const build = spawnSync("npx", ["--no-install", "turbo", "run", "build", "--output-logs=errors-only"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, ["--enable-source-maps", "apps/server/dist/main.js"], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
