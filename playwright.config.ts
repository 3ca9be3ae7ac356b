import { resolve } from "node:path";
import { defineConfig } from "@playwright/test";

// Started by `npm test` (scripts/test.mjs) with DATABASE_URL and REDIS_URL pointing at private services.
// The dashboard runs under `next start`; each spec starts its own worker processes (e2e/helpers.ts) so it
// can kill and restart them.
const PORT = Number(process.env.E2E_PORT ?? 7871);
export const SLEEP_E2E_ROOT = resolve("test-results/sleep-e2e");

export default defineConfig({
  testDir: "e2e",
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results/artifacts",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    launchOptions: {
      // Debian's chromium: `npx playwright install` cannot download browsers here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    viewport: { width: 1440, height: 900 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  webServer: {
    command: `node --import tsx scripts/start.ts --no-worker --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/backends`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    // A killed worker's run shows as interrupted after 6 s instead of 45 s.
    // Sleep projects made by e2e/sleep.spec.ts live under this folder (the only one the dashboard may name).
    env: {
      ...(process.env as Record<string, string>),
      SKILLOPT_STALE_AFTER_MS: "6000",
      SKILLOPT_SLEEP_ROOTS: SLEEP_E2E_ROOT,
    },
  },
});
