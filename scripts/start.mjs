// `npm start`: builds the web app and the compiled server and worker, then starts the server in
// production mode. Without DATABASE_URL the server runs its own embedded PostgreSQL under
// DATA_DIR (default ./data). Signals reach the build or the server, and this process exits when
// the server does; when the npm that started it is gone (killed outright), it stops as on SIGTERM.
import { fileURLToPath } from "node:url";
import { serverEnv, serverNodeFlags } from "./server-flags.mjs";
import { run, stopRequested, stopWithParent } from "./supervise.mjs";

stopWithParent();

const root = fileURLToPath(new URL("..", import.meta.url));
const build = await run("npx", ["--no-install", "turbo", "run", "build", "--output-logs=errors-only"], {
  cwd: root,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
});
if (build !== 0 || stopRequested()) process.exit(build);

const server = await run(process.execPath, [...serverNodeFlags(), "apps/server/dist/main.js"], {
  cwd: root,
  env: { NODE_ENV: "production", ...process.env, ...serverEnv() },
});
process.exit(server);
