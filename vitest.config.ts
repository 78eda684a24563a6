import { defineConfig } from "vitest/config";

const integration = ["**/*.int.test.ts", "**/*.contract.test.ts"];

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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { THROTTLE: "off" },
        },
      },
    ],
  },
});
