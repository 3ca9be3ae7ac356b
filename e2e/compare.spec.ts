/**
 * Compare with real runs on the simulated model: two seeds of one config and one other config. The page
 * shows test scores, tokens and cost beside the curves, mean ± spread over the two seeds, and a diff of
 * two runs' best skills.
 */
import { expect, test } from "@playwright/test";
import { createRunViaApi, shot, startWorker, waitForStatus, type WorkerProc } from "./helpers";

let worker: WorkerProc;

test.beforeAll(async () => {
  worker = startWorker("e2e-compare");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});

test("[COMPARE]: test scores, tokens and cost beside the curves, seeds grouped as mean ± spread, and a best-skill diff", async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  const tag = Math.random().toString(36).slice(2, 6);
  const s1 = await createRunViaApi(request, { "train.num_epochs": 1, "train.seed": 1 }, `cmp ${tag} seed 1`);
  const s2 = await createRunViaApi(request, { "train.num_epochs": 1, "train.seed": 2 }, `cmp ${tag} seed 2`);
  const other = await createRunViaApi(
    request,
    { "train.num_epochs": 1, "optimizer.learning_rate": 1 },
    `cmp ${tag} lr 1`,
  );
  for (const id of [s1, s2, other]) await waitForStatus(request, id, "succeeded", 240_000);
  await page.goto(`/runs/compare?ids=${s1},${s2},${other}`);
  const chart = page.getByTestId("compare-chart");
  await expect(chart).toBeVisible();
  // Axis titles as on the run page's charts, and one drawn line per run.
  await expect(chart.getByText("step", { exact: true })).toBeVisible();
  await expect(chart.getByText("best selection score", { exact: true })).toBeVisible();
  await expect(chart.locator(".recharts-line path.recharts-curve")).toHaveCount(3);
  await chart.getByRole("button", { name: "candidate" }).click();
  await expect(chart.getByText("candidate selection score", { exact: true })).toBeVisible();
  const results = page.getByTestId("compare-results");
  await expect(results.getByTestId(`compare-result-${s1}`)).toContainText(/\d\.\d{3} → \d\.\d{3}/);
  await expect(results.getByTestId(`compare-result-${s1}`)).toContainText(/calls/);
  const groups = page.getByTestId("seed-groups");
  await expect(groups).toContainText(`2 seeds: cmp ${tag} seed 1, cmp ${tag} seed 2`);
  await expect(groups).toContainText("train.seed 1, 2");
  await expect(groups).not.toContainText(`${tag} lr 1`);
  await expect(groups.getByTestId("seed-bestScore")).toContainText(/\d\.\d{3}/);
  await expect(page.getByTestId("best-skill-diff").getByTestId("step-diff")).toBeVisible();
  await page.getByLabel("Right run").selectOption(other);
  await expect(page.getByTestId("best-skill-diff").getByTestId("step-diff")).toContainText(`cmp ${tag} lr 1`);
  await shot(page, "compare-full");
});
