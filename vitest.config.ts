import { defineConfig } from "vitest/config";

/**
 * One test command for the whole repo. Projects:
 * - schema: pure rules, no IO
 * - server: services, routes and rooms against real Postgres (and Redis where a test asks)
 * - client: components in jsdom
 * - e2e: the built client in Debian's Chromium against the built server in a child process
 * - lint: the lint rules' own tests (eslint.config.test.ts)
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "schema", include: ["schema/src/**/*.test.ts"], environment: "node" },
      },
      {
        test: { name: "lint", include: ["eslint.config.test.ts"], environment: "node", testTimeout: 180_000 },
      },
      {
        resolve: { conditions: ["development"] },
        ssr: { resolve: { conditions: ["development"] } },
        test: {
          name: "server",
          include: ["server/src/**/*.test.ts", "server/tools/src/**/*.test.ts", "loadtest/src/**/*.test.ts"],
          environment: "node",
          setupFiles: ["server/src/test/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
      {
        resolve: { conditions: ["development"] },
        test: {
          name: "client",
          include: ["client/src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
        },
      },
      {
        resolve: { conditions: ["development"] },
        ssr: { resolve: { conditions: ["development"] } },
        test: {
          // black box: the built server runs as a child process (client/e2e/harness.ts)
          name: "e2e",
          include: ["client/e2e/**/*.e2e.ts"],
          environment: "node",
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: "forks",
          fileParallelism: false,
        },
      },
    ],
  },
});
