import os from "node:os";
import { defineConfig } from "vitest/config";

const integration = ["**/*.int.test.ts", "**/*.contract.test.ts"];
const INTEGRATION_WORKERS = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "infra/prometheus/*.test.ts"],
          exclude: [...integration, "**/node_modules/**"],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          include: ["packages", "apps"].flatMap((dir) => integration.map((glob) => `${dir}/*/src/${glob}`)),
          exclude: ["**/node_modules/**"],
          globalSetup: ["packages/db/src/testing/global-setup.ts"],
          environment: "node",
          // Files here spend much of their time waiting (on PostgreSQL, Docker, child processes and
          // timers): vitest's default, a file per core less one, ran one file at a time on a
          // two-core machine with half its CPU idle. Two at least; not more than the cores, since
          // some tests bound how long an operation may take. (`--maxWorkers` overrides it.)
          maxWorkers: INTEGRATION_WORKERS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { THROTTLE: "off" },
        },
      },
    ],
  },
});
