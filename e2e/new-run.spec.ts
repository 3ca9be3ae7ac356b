import { expect, test, type Page } from "@playwright/test";
import { shot, startWorker, testDb, type WorkerProc } from "./helpers";

let worker: WorkerProc;

test.beforeAll(async () => {
  worker = startWorker("e2e-new-run");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

const field = (page: Page, key: string) => page.locator(`[id="cfg-${key}"]`);
const baseOrigin = (page: Page) => new URL(page.url()).origin;
const unique = (what: string) => `e2e ${what} ${Math.random().toString(36).slice(2, 8)}`;

/** Counts the run-creating requests the page sends (a blocked Start must send none). */
function countCreates(page: Page): () => number {
  let n = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/runs") n++;
  });
  return () => n;
}

async function openCustomPreset(page: Page) {
  await page.goto("/runs/new");
  await page.getByLabel("Preset", { exact: true }).selectOption("custom/sample.yaml");
  await expect(page.getByTestId("custom-data")).toBeVisible();
}

/** Rows in the shape of the custom preset's mapping, written for this test, with no hidden sim annotations. */
function plainRows(n: number): string {
  const rows = Array.from({ length: n }, (_, i) => ({
    uid: `plain-${i + 1}`,
    prompt: `How many bells hang in tower number ${i + 1} of the old town?`,
    passage: `Tower number ${i + 1} of the old town holds ${i + 3} bells.`,
    gold: String(i + 3),
  }));
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

test("[NEW-RUN]: a failed upload blocks Start until the preset's example file is chosen explicitly", async ({
  page,
  request,
}) => {
  const creates = countCreates(page);
  await openCustomPreset(page);
  const name = unique("custom example");
  await page.getByLabel("Run name").fill(name);
  await page.locator("#custom-file").setInputFiles({
    name: "broken.jsonl",
    mimeType: "application/jsonl",
    buffer: Buffer.from('{"uid": "a", "prompt": "q", "gold": "x"}\nthis line is not JSON\n'),
  });
  const fileError = page.getByTestId("field-error-file");
  await expect(fileError).toContainText("the upload failed");
  await expect(fileError).toContainText("broken.jsonl");
  await expect(fileError).toContainText("choose the preset's example file");
  await shot(page, "new-run-upload-failed");

  await page.getByTestId("submit-run").click();
  await expect(page.getByTestId("form-error-summary")).toContainText("file");
  await expect(page).toHaveURL(/\/runs\/new$/);
  expect(creates()).toBe(0);

  await page.getByLabel(/the preset's example file/).check();
  await expect(fileError).toHaveCount(0);
  await page.getByTestId("submit-run").click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}/);
  const db = testDb();
  const run = await db.run.findFirstOrThrow({ where: { name } });
  await db.$disconnect();
  // Only the data choice matters here: stop the run as the dashboard's Cancel would.
  await request.patch(`/api/runs/${run.id}`, { data: { action: "cancel" }, headers: { origin: baseOrigin(page) } });
  expect((JSON.parse(run.configJson) as { env: { data_path: string } }).env.data_path).toBe(
    "configs/custom/example.jsonl",
  );
});

test("[NEW-RUN]: the simulated model says it will score data without annotations 0 and suggests a real backend", async ({
  page,
}) => {
  await openCustomPreset(page);
  await page.locator("#custom-file").setInputFiles({
    name: "bells.jsonl",
    mimeType: "application/jsonl",
    buffer: Buffer.from(plainRows(12)),
  });
  await expect(page.getByTestId("upload-summary")).toContainText("bells.jsonl: 12 rows");
  const warning = page.getByTestId("sim-coverage");
  await expect(warning).toContainText("12 of 12");
  await expect(warning).toContainText("score them 0");
  await expect(warning).toContainText(/real backend/);
  await shot(page, "new-run-sim-coverage");
  // The preset's own example carries annotations: no warning.
  await page.getByLabel(/the preset's example file/).check();
  await expect(warning).toHaveCount(0);
});

test("[NEW-RUN]: advanced sections start collapsed and their headers count the changed values", async ({ page }) => {
  await page.goto("/runs/new");
  await expect(page.getByTestId("new-run-form")).toBeVisible();
  await expect(page.locator('[data-section="train"]')).toHaveAttribute("open", "");
  for (const id of ["gradient", "optimizer", "evaluation", "budget", "transport", "sim"])
    await expect(page.locator(`[data-section="${id}"]`)).not.toHaveAttribute("open");
  await expect(page.getByText("Preset values")).toBeVisible();
  await shot(page, "new-run-collapsed");

  const section = page.locator('[data-section="optimizer"]');
  await section.locator("summary").click();
  await field(page, "optimizer.learning_rate").fill("7");
  await field(page, "optimizer.min_learning_rate").fill("2");
  await section.locator("summary").click();
  await expect(section).not.toHaveAttribute("open");
  await expect(section.locator("summary")).toContainText("2 changed");
  await expect(page.getByText("2 changes from the preset")).toBeVisible();
  await shot(page, "new-run-changed-count");
});

test("[NEW-RUN]: '1e' in a number field is 'not a number' and blocks Start", async ({ page }) => {
  const creates = countCreates(page);
  await page.goto("/runs/new");
  const epochs = field(page, "train.num_epochs");
  await epochs.fill("1e");
  await expect(page.getByTestId("field-error-train.num_epochs")).toHaveText("not a number");
  await page.getByTestId("submit-run").click();
  await expect(page.getByTestId("form-error-summary")).toContainText("train.num_epochs: not a number");
  await expect(epochs).toBeFocused();
  await expect(page).toHaveURL(/\/runs\/new$/);
  await shot(page, "new-run-not-a-number");
  await epochs.fill("1");
  await expect(page.getByTestId("field-error-train.num_epochs")).toHaveCount(0);
  await expect(page.getByTestId("form-error-summary")).toHaveCount(0);
  expect(creates()).toBe(0);
});

test("[NEW-RUN]: an oversized seed skill is refused in the browser with one message naming the field", async ({
  page,
}) => {
  const creates = countCreates(page);
  await page.goto("/runs/new");
  const line = "- Answer with the shortest span that fully answers the question.\n";
  // As a paste delivers it: one input event with the whole text (Playwright's fill() types a multi-line
  // 200 KB text through Chromium's insertText, which alone takes over a minute here).
  await page.locator("#seed-skill").evaluate(
    (el, text) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
      setValue.call(el, text);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    },
    line.repeat(Math.ceil((210 * 1024) / line.length)),
  );
  const error = page.getByTestId("field-error-skill");
  await expect(error).toHaveText(/^the skill is 2\d\d KB; the limit is 200 KB$/);
  await page.getByTestId("submit-run").click();
  const summary = page.getByTestId("form-error-summary");
  await expect(summary).toContainText(/skill: the skill is 2\d\d KB; the limit is 200 KB/);
  await expect(summary).not.toContainText("skill: skill:");
  await expect(page.locator("#seed-skill")).toBeFocused();
  await shot(page, "new-run-skill-too-big");
  expect(creates()).toBe(0);
  await page.getByRole("button", { name: "Reset to the preset's skill" }).click();
  await expect(error).toHaveCount(0);
});

test("[NEW-RUN]: cancelling a run asks for confirmation first, and the cancelled run resumes", async ({
  page,
  request,
}) => {
  await page.goto("/runs/new");
  const name = unique("cancel resume");
  await page.getByLabel("Run name").fill(name);
  // Long enough (minutes) that it is still running while the test clicks.
  await field(page, "train.num_epochs").fill("30");
  await page.locator('[data-section="sim"] > summary').click();
  await page.getByLabel(/simulated latency/i).fill("40");
  await page.getByTestId("submit-run").click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}/);
  const id = page.url().split("/").pop()!;
  const status = page.getByTestId("run-status");
  await expect(status).toHaveText(/running/i, { timeout: 30_000 });

  await page.getByTestId("cancel-run").click();
  await expect(page.getByText("Stop this run at its next safe point?")).toBeVisible();
  await shot(page, "new-run-cancel-confirm");
  await page.getByTestId("keep-running").click();
  await expect(page.getByTestId("confirm-cancel")).toHaveCount(0);
  await expect(status).toHaveText(/running/i);

  await page.getByTestId("cancel-run").click();
  await page.getByTestId("confirm-cancel").click();
  await expect(status).toHaveText(/cancelled/i, { timeout: 30_000 });
  const db = testDb();
  const cancelled = await db.run.findUniqueOrThrow({ where: { id } });
  expect(cancelled.status).toBe("cancelled");

  await page.getByTestId("resume-run").click();
  await expect(status).toHaveText(/running/i, { timeout: 30_000 });
  // The resumed run commits new steps after the ones it had (the step table pages, so count rows in the DB).
  await expect
    .poll(async () => (await db.run.findUniqueOrThrow({ where: { id } })).stepsDone, { timeout: 60_000 })
    .toBeGreaterThan(cancelled.stepsDone);
  await shot(page, "new-run-resumed");
  await db.$disconnect();
  // Leave nothing running for the next spec (409: it has finished meanwhile).
  const stop = await request.patch(`/api/runs/${id}`, { data: { action: "cancel" } });
  expect([200, 409]).toContain(stop.status());
});
