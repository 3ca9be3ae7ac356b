import { expect, test } from "@playwright/test";
import { createRunViaApi, shot, startWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";

let worker: WorkerProc;

test.beforeAll(async () => {
  worker = startWorker("e2e-main");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

test("[RUNS]: creating a run from the form opens its page, and the curves gain points without a reload", async ({
  page,
}) => {
  await page.goto("/runs/new");
  await expect(page.getByTestId("new-run-form")).toBeVisible();
  await expect(page.getByText("Simulated model — scores are synthetic").first()).toBeVisible();
  await page
    .getByLabel(/epochs/i)
    .first()
    .fill("2");
  // Advanced sections start collapsed: open the simulated model's to set its latency.
  await page.locator('[data-section="sim"] > summary').click();
  await page.getByLabel(/simulated latency/i).fill("25");
  await shot(page, "new-run");
  await page.getByTestId("submit-run").click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}/);
  const steps = page.locator('[data-testid^="step-row-"]');
  await expect(steps.first()).toBeVisible();
  const early = await steps.count();
  await expect.poll(async () => steps.count(), { timeout: 60_000 }).toBeGreaterThan(early);
  await expect(page.getByTestId("chart-selection")).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText(/succeeded/i, { timeout: 90_000 });
  await shot(page, "run");
});

test("[RUNS]: a rejected step shows the side-by-side diff, its edits and the flipped items", async ({
  page,
  request,
}) => {
  const id = await createRunViaApi(request, {});
  await waitForStatus(request, id, "succeeded");
  const db = testDb();
  const rejected = await db.step.findFirst({ where: { runId: id, action: "reject" }, orderBy: { step: "asc" } });
  await db.$disconnect();
  expect(rejected).not.toBeNull();
  await page.goto(`/runs/${id}`);
  await page.getByTestId(`step-row-${rejected!.step}`).click();
  await expect(page.getByTestId("step-diff")).toBeVisible();
  await expect(page.getByTestId("diff-right")).toContainText(/\S/);
  await expect(page.getByTestId("edits-table")).toContainText(/rejected/i);
  await expect(page.getByTestId("selection-table")).toBeVisible();
  await shot(page, "step-diff");
});

test("[EXPORT]: the downloaded best_skill.md has exactly the bytes in the database", async ({ page, request }) => {
  const id = await createRunViaApi(request, { "train.num_epochs": 1 });
  await waitForStatus(request, id, "succeeded");
  await page.goto(`/runs/${id}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-best-skill").click(),
  ]);
  expect(download.suggestedFilename()).toBe("best_skill.md");
  const path = await download.path();
  const { readFileSync } = await import("node:fs");
  const db = testDb();
  const row = await db.runArtifact.findUnique({ where: { runId_name: { runId: id, name: "best_skill.md" } } });
  await db.$disconnect();
  expect(readFileSync(path!, "utf8")).toBe(row!.content);
});

test("[EXPORT]: the download buttons work at the first moment they are enabled (right after the baseline)", async ({
  page,
  request,
}) => {
  // Slow enough that the first step is far from committed when the baseline makes the buttons appear (at 40 ms per
  // call a loaded CI machine had reached step 39 by the time both downloads were done).
  const id = await createRunViaApi(request, { "model.sim_latency_ms": 100, "train.num_epochs": 30 });
  await page.goto(`/runs/${id}`);
  // Before the baseline it is a disabled button; it becomes a link exactly when the export row exists.
  const skill = page.locator('a[data-testid="download-best-skill"]');
  await expect(skill).toBeVisible({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), skill.click()]);
  expect(download.suggestedFilename()).toBe("best_skill.md");
  const { readFileSync } = await import("node:fs");
  const text = readFileSync((await download.path())!, "utf8");
  const [bundle] = await Promise.all([
    page.waitForEvent("download"),
    page.locator('a[data-testid="download-bundle"]').click(),
  ]);
  expect(bundle.suggestedFilename()).toMatch(/^skillopt-run-[0-9a-f]{8}\.zip$/);
  const db = testDb();
  const run = await db.run.findUniqueOrThrow({ where: { id } });
  const versions = await db.skillVersion.findMany({ where: { runId: id }, select: { content: true } });
  await db.run.update({ where: { id }, data: { cancelRequested: true, status: "cancelling" } });
  await db.$disconnect();
  // The bytes of a skill the run really had as its best (the seed at the baseline), never a 409 page.
  expect(versions.map((v) => v.content)).toContain(text);
  expect(run.stepsDone).toBeLessThan(30);
});

test("[RUNS]: cancelling a running run shows it as cancelled", async ({ page, request }) => {
  // Long enough (minutes) that it is still running when the click lands, even on a busy machine.
  const id = await createRunViaApi(request, { "model.sim_latency_ms": 40, "train.num_epochs": 30 });
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId("run-status")).toHaveText(/running/i);
  await page.getByTestId("cancel-run").click();
  await page.getByTestId("confirm-cancel").click();
  await expect(page.getByTestId("run-status")).toHaveText(/cancelled/i, { timeout: 30_000 });
  const db = testDb();
  expect((await db.run.findUnique({ where: { id } }))!.status).toBe("cancelled");
  await db.$disconnect();
});

test("[RUNS]: the runs list, compare and 404 pages render", async ({ page, request }) => {
  const a = await createRunViaApi(request, { "train.num_epochs": 1 });
  const b = await createRunViaApi(request, { "train.num_epochs": 1, "optimizer.learning_rate": 1 });
  await waitForStatus(request, a, "succeeded");
  await waitForStatus(request, b, "succeeded");
  await page.goto("/");
  await expect(page.getByTestId("runs-table")).toBeVisible();
  await expect(page.getByTestId(`run-row-${a}`)).toBeVisible();
  await shot(page, "runs");
  await page.goto(`/runs/compare?ids=${a},${b}`);
  await expect(page.getByTestId("compare-chart")).toBeVisible();
  await expect(page.getByTestId("config-diff")).toContainText("learning_rate");
  await shot(page, "compare");
  await page.goto("/runs/00000000-0000-4000-8000-000000000000");
  await expect(page.getByText(/not found|does not exist/i).first()).toBeVisible();
  await shot(page, "not-found");
});
