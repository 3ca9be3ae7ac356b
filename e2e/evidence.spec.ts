import { expect, test, type Locator, type Page } from "@playwright/test";
import { createRunViaApi, startWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";
import { mkdirSync } from "node:fs";

let worker: WorkerProc;
let runId: string;

test.beforeAll(async ({ request }) => {
  worker = startWorker("e2e-evidence");
  await worker.ready;
  runId = await createRunViaApi(request, { "evaluation.noise_floor_repeats": 2 });
  await waitForStatus(request, runId, "succeeded");
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

/** A screenshot of one panel (the run page is long). */
async function panelShot(page: Page, panel: Locator, name: string): Promise<void> {
  mkdirSync("test-results/screenshots", { recursive: true });
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: `test-results/screenshots/${process.env.E2E_PROVIDER ?? "db"}-${name}.png` });
}

test("[EVIDENCE]: the gate evidence panel lists every decision with its statistics and opens the paired items", async ({
  page,
}) => {
  const db = testDb();
  const steps = await db.step.count({ where: { runId } });
  await db.$disconnect();
  await page.goto(`/runs/${runId}`);
  const panel = page.getByTestId("gate-evidence");
  await expect(panel).toBeVisible();
  // One row per step gate, at least (slow-update gates and the final check add theirs).
  await expect.poll(() => panel.getByTestId("gate-evidence-row").count()).toBeGreaterThanOrEqual(steps);
  await expect(panel).toContainText(/Candidate (better|higher|worse)|No difference/);
  await expect(panel.getByTestId("noise-floor")).toContainText("epoch 1");
  // The simulated target scores the same skill the same way every time: no band to draw, and the chart says so.
  await expect(panel.getByTestId("noise-floor")).toContainText("deterministic target");
  await expect(page.getByTestId("chart-selection").getByTestId("noise-note")).toHaveText(
    "A/A band: no run-to-run noise measured: deterministic target",
  );
  await panel.getByTestId("gate-evidence-row").first().click();
  await expect(panel.getByTestId("paired-items")).toContainText(/improved|same|regressed/);
  await panelShot(page, panel, "gate-evidence");
});

test("[EVIDENCE]: the proposal explorer filters by status, step and text and opens an edit's trajectories", async ({
  page,
}) => {
  await page.goto(`/runs/${runId}`);
  const ex = page.getByTestId("proposal-explorer");
  await expect(ex.getByTestId("proposal-row").first()).toBeVisible();
  const total = await ex.getByTestId("proposal-row").count();
  await ex.getByLabel("Status").selectOption("rejected");
  const rejected = await ex.getByTestId("proposal-row").count();
  expect(rejected).toBeGreaterThan(0);
  expect(rejected).toBeLessThan(total);
  for (const row of await ex.getByTestId("proposal-row").all()) await expect(row).toContainText("rejected");
  await ex.getByLabel("Status").selectOption("");
  await ex.getByLabel("Step").selectOption("1");
  for (const row of await ex.getByTestId("proposal-row").all()) await expect(row.locator("td").first()).toHaveText("1");
  await ex.getByLabel("Search edits").fill("no edit says this zzqx");
  await expect(ex).toContainText("No proposed edit matches these filters.");
  await ex.getByLabel("Search edits").fill("");
  await ex.getByTestId("proposal-row").first().click();
  await expect(ex.getByTestId("proposal-evidence")).toContainText(/read \d+ trajectories/);
  await expect(ex.getByTestId("proposal-evidence").locator("details").first()).toBeVisible();
  await panelShot(page, ex, "proposal-explorer");
});

test("[EVIDENCE]: the blame view attributes every line of the best skill; the bundle holds BLAME.md", async ({
  page,
  request,
}) => {
  await page.goto(`/runs/${runId}`);
  const blame = page.getByTestId("blame-view");
  await expect(blame.getByTestId("blame-line").first()).toBeVisible();
  const best = await (await request.get(`/api/runs/${runId}/export?what=skill`)).text();
  const lines = best.replace(/\n$/, "").split("\n").length;
  await expect(blame.getByTestId("blame-line")).toHaveCount(lines);
  const stepLine = blame
    .getByTestId("blame-line")
    .filter({ hasText: /step \d+/ })
    .first();
  await stepLine.click();
  await expect(blame.getByTestId("blame-detail")).toContainText(/step \d+ \(epoch \d+/);
  await expect(page.getByTestId("run-leakage")).toContainText("0 item pair(s) shared across splits");
  await panelShot(page, blame, "blame-view");
  const zip = await request.get(`/api/runs/${runId}/export?what=bundle`);
  expect(Buffer.from(await zip.body()).includes(Buffer.from("BLAME.md"))).toBe(true);
});
