import { expect, test } from "@playwright/test";
import { createRunViaApi, shot, startWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";

let worker: WorkerProc;

test.beforeAll(async () => {
  worker = startWorker("e2e-review");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

test("[REVIEW]: a run waits at the gate; the reviewer accepts with a note and the run continues", async ({
  page,
  request,
}) => {
  const id = await createRunViaApi(request, {
    "train.num_epochs": 1,
    "evaluation.human_review": "ask",
    "evaluation.human_review_timeout_s": 900,
    "evaluation.human_review_fallback": "reject",
  });
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/runs/${id}`);
  const panel = page.getByTestId("gate-review");
  await expect(panel).toContainText("Step 1 waits for your review");
  await expect(page.getByTestId("run-status")).toHaveText(/awaiting_review/);
  await expect(panel.getByTestId("review-evidence")).toContainText("Paired items");
  await expect(panel.getByTestId("step-diff")).toBeVisible();
  await page.getByTestId("review-note").fill("The new rule about short answers reads right.");
  await page.getByTestId("review-author").fill("Dana");
  await shot(page, "review-pending");
  await page.getByTestId("review-accept").click();

  // The decision is recorded (history table, event) and the run leaves the gate.
  await expect(page.getByTestId("review-history")).toContainText("Dana");
  await expect(page.getByTestId("review-history")).toContainText("accept");
  const db = testDb();
  await expect
    .poll(async () => (await db.step.findUnique({ where: { runId_step: { runId: id, step: 1 } } }))?.recordJson ?? "")
    .toContain('"author":"Dana"');
  const events = await db.runEvent.findMany({ where: { runId: id, type: "reviewDecided" } });
  await db.$disconnect();
  expect(events).toHaveLength(1);
  expect(JSON.parse(events[0]!.payload)).toMatchObject({ step: 1, decision: "accept", author: "Dana" });
  await page.reload();
  await expect(page.getByTestId("review-history")).toContainText("The new rule about short answers reads right.");
  await shot(page, "review-decided");
  await request.patch(`/api/runs/${id}`, { data: { action: "cancel" } });
});
