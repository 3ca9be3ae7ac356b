/**
 * Honest connection state: a second dashboard (`next start` on its own port, reusing the build) is
 * killed with SIGKILL while a run page is open, then started again on the same port. Meanwhile the page
 * says "reconnecting…", hides the ETA and never shows the browser's "Failed to fetch"; afterwards it is
 * live again by itself, with the ETA back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { freePort } from "../tests/helpers/processes";
import { seedRun } from "../tests/helpers/runs";
import { shot, testDb } from "./helpers";

let server: ChildProcess | null = null;
let port = 0;
let log = "";

async function startDashboard(): Promise<void> {
  server = spawn("./node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    // A seeded "running" run has no worker: keep it from turning interrupted while the test looks at it.
    env: { ...process.env, SKILLOPT_STALE_AFTER_MS: "600000", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so a kill takes any process Next starts with it
  });
  server.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 150_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/backends`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (server.exitCode !== null) throw new Error(`dashboard exited (${server.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`dashboard did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function killDashboard(): Promise<void> {
  const s = server;
  if (!s || s.exitCode !== null || s.signalCode !== null) return;
  const exited = new Promise((r) => s.once("exit", r));
  // The whole process group, abruptly: no graceful close of the open streams.
  process.kill(-s.pid!, "SIGKILL");
  await exited;
}

test.afterAll(async () => {
  await killDashboard();
});

test("[CONNECTION]: a dropped server shows reconnecting… without the ETA, and the page is live again when it is back", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  port = await freePort();
  const db = testDb();
  const started = new Date(Date.now() - 60_000);
  const id = await seedRun(db, {
    name: "connection e2e",
    status: "running",
    startedAt: started,
    heartbeatAt: new Date(2100, 0, 1),
    stepsDone: 2,
    stepsTotal: 10,
    numEpochs: 2,
    epoch: 1,
  });
  await startDashboard();
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  // A panel drawn late (below the fold, or once the browser is idle) may ask for its data while the server
  // is down: its request is held here until the kill, so it fails as it would in that race.
  let releaseDataset = () => {};
  const datasetHeld = new Promise<void>((r) => (releaseDataset = r));
  await page.route(`**/api/runs/${id}/dataset*`, async (route) => {
    await datasetHeld;
    await route.continue().catch(() => {}); // the page sees the refused connection
  });
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId("stream-state")).toHaveText("live");
  await expect(page.getByTestId("eta")).toBeVisible();

  await killDashboard();
  await expect(page.getByTestId("stream-state")).toHaveText("reconnecting…");
  await expect(page.getByTestId("eta")).toHaveCount(0);
  releaseDataset();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.getByText(/Data unavailable: .*not answering/)).toBeVisible({ timeout: 30_000 });
  // The next poll fails too: it is reported in plain words.
  await expect(page.getByText(/dashboard server is not answering/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Failed to fetch/)).toHaveCount(0);
  await expect(page.getByTestId("stream-state")).toHaveText("reconnecting…");
  await shot(page, "connection-reconnecting");

  await startDashboard();
  await expect(page.getByTestId("stream-state")).toHaveText("live", { timeout: 30_000 });
  await expect(page.getByTestId("eta")).toBeVisible();
  // Every query that failed for want of an answer is asked again, the late panel's too: nothing keeps
  // saying the server is down once it answers.
  await expect(page.getByText(/dashboard server is not answering/)).toHaveCount(0, { timeout: 15_000 });
  await shot(page, "connection-live-again");
  await context.close();
  await db.run.update({ where: { id }, data: { status: "cancelled", finishedAt: new Date() } });
  await db.$disconnect();
});
