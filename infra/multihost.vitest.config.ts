import { defineConfig } from "vitest/config";

/**
 * The multi-host test alone (infra/test-multihost.sh): two Docker hosts in network namespaces,
 * real worker processes, the run's PostgreSQL and Redis from the integration harness.
 */
export default defineConfig({
  test: {
    include: ["infra/multihost.test.ts"],
    globalSetup: ["packages/db/src/testing/global-setup.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    env: { THROTTLE: "off" },
  },
});
