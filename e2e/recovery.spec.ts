import { expect, test } from "@playwright/test";
import { createRunViaApi, shot, startWorker as spawnWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";

// Every worker a test starts is stopped afterwards, even when the test fails halfway.
const started: WorkerProc[] = [];
const startWorker = (id: string) => {
  const w = spawnWorker(id);
  started.push(w);
  return w;
};
test.afterEach(async ({}, testInfo) => {
  const workers = started.splice(0);
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const [i, w] of workers.entries())
      await testInfo.attach(`worker-${i}.log`, { body: w.log(), contentType: "text/plain" });
    console.log(workers.map((w) => w.log()).join("\n---\n"));
  }
  await Promise.all(workers.map((w) => w.kill("SIGKILL")));
});

test("[RECOVERY]: a worker killed with SIGKILL mid-run is replaced and the run ends with the best skill of an uninterrupted run", async ({
  page,
  request,
}) => {
  const overrides = { "train.num_epochs": 2, "model.sim_latency_ms": 20 };
  const first = startWorker("e2e-doomed");
  await first.ready;
  const reference = await createRunViaApi(request, overrides, "uninterrupted reference");
  await waitForStatus(request, reference, "succeeded");
  const victim = await createRunViaApi(request, overrides, "killed mid-run");
  await page.goto(`/runs/${victim}`);
  const db = testDb();
  await expect
    .poll(async () => (await db.run.findUnique({ where: { id: victim } }))!.stepsDone, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(2);
  await first.kill("SIGKILL");
  const second = startWorker("e2e-replacement");
  await second.ready;
  await expect(page.getByTestId("run-status")).toHaveText(/succeeded/i, { timeout: 90_000 });
  const [ref, got] = await Promise.all(
    [reference, victim].map((runId) =>
      db.checkpoint.findUnique({ where: { runId_key: { runId, key: "best_skill.md" } } }),
    ),
  );
  expect(got!.value).toBe(ref!.value);
  const run = await db.run.findUnique({ where: { id: victim } });
  expect(run!.workerId).toBe("e2e-replacement");
  const steps = await db.step.count({ where: { runId: victim } });
  expect(steps).toBe(6);
  await db.$disconnect();
  await shot(page, "recovered-run");
  await second.kill();
});

test("[RECOVERY]: a run whose worker died shows as interrupted with a resume button, and resumes", async ({
  page,
  request,
}) => {
  const doomed = startWorker("e2e-lonely");
  await doomed.ready;
  const id = await createRunViaApi(request, { "model.sim_latency_ms": 30 }, "interrupted then resumed");
  const db = testDb();
  await expect
    .poll(async () => (await db.run.findUnique({ where: { id } }))!.stepsDone, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(1);
  await doomed.kill("SIGKILL");
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId("run-status")).toHaveText(/interrupted/i, { timeout: 30_000 });
  await expect(page.getByTestId("resume-run")).toBeVisible();
  await shot(page, "interrupted-run");
  await page.getByTestId("resume-run").click();
  const rescuer = startWorker("e2e-rescuer");
  await rescuer.ready;
  await expect(page.getByTestId("run-status")).toHaveText(/succeeded/i, { timeout: 90_000 });
  expect(await db.step.count({ where: { runId: id } })).toBe(9);
  await db.$disconnect();
  await rescuer.kill();
});
