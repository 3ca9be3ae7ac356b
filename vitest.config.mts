import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    projects: [
      {
        resolve: { alias: { "@": root } },
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "worker/**/*.test.ts",
            "scripts/**/*.test.ts",
            "components/**/*.test.ts",
            "*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias: { "@": root } },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.int.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Files share the private Redis; keep them sequential so queue tests do not steal each other's jobs.
          fileParallelism: false,
        },
      },
    ],
  },
});
