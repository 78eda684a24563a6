import { defineConfig } from "vitest/config";

/** The compose stack test alone (infra/test-stack.sh): slow, one file, its own timeouts. */
export default defineConfig({
  test: {
    include: ["infra/stack.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 30 * 60_000,
    fileParallelism: false,
  },
});
