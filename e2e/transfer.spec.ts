import { expect, test } from "@playwright/test";
import { createRunViaApi, shot, startWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";

let worker: WorkerProc;

test.beforeAll(async () => {
  worker = startWorker("e2e-transfer");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

test("[TRANSFER]: a finished run's best skill and seed on two sim targets, as a matrix and a CSV", async ({
  page,
  request,
}) => {
  const id = await createRunViaApi(request, { "train.num_epochs": 1 });
  await waitForStatus(request, id, "succeeded");
  await page.goto(`/runs/${id}`);
  const panel = page.getByTestId("transfer-matrix");
  await expect(panel).toBeVisible();
  await page.getByTestId("transfer-backend").selectOption("sim");
  for (const model of ["sim-target", "sim-target-large"]) {
    await page.getByTestId("transfer-model").fill(model);
    await page.getByTestId("transfer-add").click();
  }
  await expect(page.getByTestId("transfer-picked")).toContainText("sim / sim-target-large");
  await page.getByTestId("transfer-queue").click();
  const rows = page.getByTestId("transfer-row");
  await expect(rows).toHaveCount(2);
  // Every cell is a worker job: the matrix fills in without a reload.
  await expect(page.getByTestId("transfer-table")).not.toContainText(/queued|running/, { timeout: 90_000 });
  await expect(rows.first()).toContainText("sim / sim-target");
  await expect(rows.first()).toContainText("(trained on)");
  await shot(page, "transfer-matrix");

  const csv = await (await request.get(`/api/runs/${id}/transfer?format=csv`)).text();
  const lines = csv.trim().split("\n");
  expect(lines[0]).toMatch(/^backend,model,seed_hard,best_hard,delta_hard/);
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(/^sim,sim-target,.*,succeeded\/succeeded$/);
  // The run's own target reproduces the run's test scores on the same items.
  const run = (await (await request.get(`/api/runs/${id}`)).json()) as { testBest: number | null };
  const matrix = (await (await request.get(`/api/runs/${id}/transfer`)).json()) as {
    rows: Array<{ model: string; best: { hard: number } }>;
  };
  expect(matrix.rows.find((r) => r.model === "sim-target")!.best.hard).toBeCloseTo(run.testBest!, 6);

  // A failed cell is retried alone: its Retry button queues it again and the worker scores it.
  const db = testDb();
  const cell = await db.transferCell.findFirstOrThrow({ where: { runId: id, targetModel: "sim-target-large" } });
  await db.transferCell.update({
    where: { id: cell.id },
    data: { status: "failed", errorMessage: "planted failure", hard: null, finishedAt: new Date() },
  });
  const untouched = await db.transferCell.count({ where: { runId: id, status: "succeeded" } });
  await page.reload();
  await expect(page.getByTestId("transfer-retry")).toHaveCount(1);
  await page.getByTestId("transfer-retry").click();
  await expect(page.getByTestId("transfer-table")).not.toContainText(/failed|queued|running/, { timeout: 90_000 });
  expect(await db.transferCell.count({ where: { runId: id, status: "succeeded" } })).toBe(untouched + 1);
  await db.$disconnect();
});
