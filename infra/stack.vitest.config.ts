import { defineConfig } from "vitest/config";

/** The compose stack test alone (infra/test-stack.sh): slow, one file, its own timeouts. */
export default defineConfig({
  test: {
    include: ["infra/stack.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 30 * 60_000,
    fileParallelism: false,
    // testcontainers' reaper runs from an image that cannot be pulled here; the test removes the
    // stack itself. The stack publishes its ports on 127.0.0.1 only, and testcontainers, when it
    // finds itself in a container (a /.dockerenv file, as CI machines have), would look for them on
    // the bridge's gateway instead: the host is given.
    env: { TESTCONTAINERS_RYUK_DISABLED: "true", TESTCONTAINERS_HOST_OVERRIDE: "127.0.0.1" },
  },
});
