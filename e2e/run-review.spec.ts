import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { circleCentres } from "../components/charts/marks-path";
import { seedBigRun } from "../scripts/bench/seed";
import { expandItemHistory, type ItemHistoryWire } from "../lib/contracts/item-history";
import { createRunViaApi, shot, startWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";

// The run page as a review tool (issue 13 items 1, 2, 4, 5), on one finished sample run.
let worker: WorkerProc;
let runId: string;

test.beforeAll(async ({ request }) => {
  // A whole sample run on a busy machine may take minutes.
  test.setTimeout(420_000);
  worker = startWorker("e2e-review");
  await worker.ready;
  // Seed 2: under the simulated model this run's final skill repeats a line (the version browser flags it).
  runId = await createRunViaApi(request, { "model.sim_latency_ms": 0, "train.seed": 2 }, "e2e review");
  await waitForStatus(request, runId, "succeeded", 400_000);
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

const detail = (page: Page) => page.locator("#step-detail");
/** The detail's top edge, relative to the window (it is "brought into view" when it starts in the top half). */
const detailTop = (page: Page) => detail(page).evaluate((el) => el.getBoundingClientRect().top / window.innerHeight);
const expectDetailInView = async (page: Page) =>
  expect.poll(() => detailTop(page), { timeout: 5_000 }).toBeLessThan(0.5);

/** The run's committed steps, read from the database. */
async function stepsDoneOf(id: string): Promise<number> {
  const db = testDb();
  const { stepsDone } = await db.run.findUniqueOrThrow({ where: { id }, select: { stepsDone: true } });
  await db.$disconnect();
  return stepsDone;
}

/**
 * The candidates' marks of one decision on the selection chart (one path per decision, a circle per mark),
 * in page coordinates, left to right; with their path's fill and stroke, which tell the decisions apart.
 */
async function marks(chart: Locator, decision: string) {
  const path = chart.locator(`path[data-decision="${decision}"]`);
  const { d, m, fill, stroke, count } = await path.evaluate((el: SVGPathElement) => {
    const ctm = el.getScreenCTM()!;
    return {
      d: el.getAttribute("d") ?? "",
      m: { a: ctm.a, b: ctm.b, c: ctm.c, d: ctm.d, e: ctm.e, f: ctm.f },
      fill: getComputedStyle(el).fill,
      stroke: getComputedStyle(el).stroke,
      count: Number(el.dataset.marks),
    };
  });
  const centres = circleCentres(d)
    .map(({ x, y }) => ({ x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f }))
    .sort((p, q) => p.x - q.x);
  return { centres, fill, stroke, count };
}

test("[REVIEW-5]: clicking a step row or a chart point brings the step's detail into view", async ({ page }) => {
  await page.goto(`/runs/${runId}`);
  const rows = page.locator('[data-testid^="step-row-"]');
  await expect(rows.first()).toBeVisible();
  await expect(detail(page)).not.toBeInViewport();
  await page.getByTestId("step-row-2").click();
  await expect(page).toHaveURL(/step=2/);
  await expectDetailInView(page);
  expect(await detailTop(page)).toBeGreaterThan(-0.05);
  await expect(detail(page)).toContainText("Step 2");
  await shot(page, "review-step-in-view");

  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(detail(page)).not.toBeInViewport();
  // A candidate's mark on the selection chart: hover it (the chart tracks the pointer), then click.
  const chart = page.getByTestId("chart-selection");
  const all = [
    ...(await marks(chart, "accepted")).centres,
    ...(await marks(chart, "rejected")).centres,
    ...(await marks(chart, "skipped")).centres,
  ].sort((p, q) => p.x - q.x);
  const dot = all[4]!;
  await page.mouse.move(dot.x - 2, dot.y);
  await page.mouse.move(dot.x, dot.y);
  await page.mouse.click(dot.x, dot.y);
  await expect(page).toHaveURL(/step=(?!2\b)\d+/);
  await expectDetailInView(page);
  // No focus box is left on the chart after a mouse click.
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? getComputedStyle(el).outlineStyle : "none";
  });
  expect(outline).toBe("none");
});

test("[REVIEW-5]: a step click asks the server only for that step, not for the page again", async ({ page }) => {
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("step-row-2")).toBeVisible();
  await expect(detail(page)).toContainText(/Step \d+/);
  const asked: string[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname === `/runs/${runId}`) asked.push(u.pathname + u.search);
  });
  const stepAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/runs/${runId}/steps/2`);
  await page.getByTestId("step-row-2").click();
  await expect(page).toHaveURL(/step=2/);
  expect((await stepAnswer).ok()).toBe(true);
  await expect(detail(page)).not.toContainText("Loading step");
  // The page is not asked for again (a server render per click).
  expect(asked).toEqual([]);
});

test("[REVIEW-5]: opening a finished run's page fetches its detail once (the stream's first open asks no copy)", async ({
  page,
}) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === `/api/runs/${runId}`) asked.push(r.url());
  });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("step-row-2")).toBeVisible();
  // The finished run's stream replays its history and closes (an open stream keeps the network busy).
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("stream-state")).toHaveCount(0);
  expect(asked.length).toBe(1);
});

test("[REVIEW-5]: the page's head preloads the run detail and the step it opens on, each then fetched once", async ({
  page,
}) => {
  const stepsDone = await stepsDoneOf(runId);
  // In the page's response itself, so the browser asks for both before RunView runs. The detail always as a
  // `<link rel="preload">` in the head; the step (which may need the run read first) there too, or as a
  // preload hint in the page's payload (in a script, quotes escaped) when the head had already gone out.
  const html = await (await page.request.get(`/runs/${runId}?step=2`)).text();
  expect(html).toContain(`<link rel="preload" href="/api/runs/${runId}" as="fetch"`);
  const step = `/api/runs/${runId}/steps/2`;
  expect(html).toMatch(
    new RegExp(`<link rel="preload" href="${step}" as="fetch"|:HL\\[\\\\"${step}\\\\",\\\\"fetch\\\\"`),
  );
  const asked: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith(`/api/runs/${runId}`)) asked.push(new URL(r.url()).pathname);
  });
  await page.goto(`/runs/${runId}`);
  await expect(detail(page)).toContainText(`Step ${stepsDone}`);
  await page.waitForLoadState("networkidle");
  // The queries took the preloaded answers: no second request for either (the stream is another path).
  const counts = (path: string) => asked.filter((p) => p === path).length;
  expect(counts(`/api/runs/${runId}`)).toBe(1);
  expect(counts(`/api/runs/${runId}/steps/${stepsDone}`)).toBe(1);
});

test("[REVIEW-5]: the step the page opens on is asked for together with the run detail, not after it", async ({
  page,
}) => {
  const stepsDone = await stepsDoneOf(runId);
  const stepPath = `/api/runs/${runId}/steps/${stepsDone}`;
  const stepAsks: string[] = [];
  page.on("request", (r) => {
    if (/\/steps\/\d+$/.test(new URL(r.url()).pathname)) stepAsks.push(new URL(r.url()).pathname);
  });
  // The run detail is held until the latest step has been asked for (5 s at most): a page that waits for
  // the detail before asking for the step asks nothing meanwhile.
  let askedWhileHeld = false;
  await page.route(`**/api/runs/${runId}`, async (route) => {
    const until = Date.now() + 5_000;
    while (!stepAsks.includes(stepPath) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    askedWhileHeld = stepAsks.includes(stepPath);
    await route.continue();
  });
  await page.goto(`/runs/${runId}`);
  await expect(detail(page)).toContainText(`Step ${stepsDone}`);
  await expect(detail(page)).not.toContainText("Loading step");
  expect(askedWhileHeld).toBe(true);
  // The panel reads the answer already asked for: one request for that step, no second.
  expect(stepAsks).toEqual([stepPath]);
});

test("[REVIEW-4]: charts are drawn once at their width, and their lines never measured (getTotalLength)", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { lengthCalls: number; resized: string[] };
    w.lengthCalls = 0;
    w.resized = [];
    const original = SVGGeometryElement.prototype.getTotalLength;
    SVGGeometryElement.prototype.getTotalLength = function (this: SVGGeometryElement) {
      w.lengthCalls++;
      return original.call(this);
    };
    // A chart first drawn at a guessed width and drawn again at its real one changes its svg's width.
    new MutationObserver((ms) => {
      for (const m of ms) {
        const el = m.target as Element;
        if (el.classList.contains("recharts-surface")) w.resized.push(`${m.oldValue} → ${el.getAttribute("width")}`);
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["width"], attributeOldValue: true });
  });
  const calls = () => page.evaluate(() => (window as unknown as { lengthCalls: number }).lengthCalls);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("chart-selection").locator(".recharts-line-curve").first()).toBeVisible();
  await expect(page.getByTestId("chart-cost").locator(".recharts-line-curve").first()).toBeVisible();
  await page.getByTestId("step-row-2").click();
  await expect(detail(page)).toContainText("Step 2");
  // The selected step's guide line moved to step 2.
  // Soft: each of the three reports on its own.
  await expect.soft(page.getByTestId("selected-step-line")).toHaveAttribute("data-step", "2");
  await page.waitForLoadState("networkidle");
  expect.soft(await calls()).toBe(0);
  expect.soft(await page.evaluate(() => (window as unknown as { resized: string[] }).resized)).toEqual([]);
});

test("[REVIEW-1]: versions open against their parent, any two compare side by side or inline, each downloads", async ({
  page,
}) => {
  const db = testDb();
  const seed = await db.skillVersion.findFirstOrThrow({ where: { runId, kind: "seed" } });
  const slow = await db.skillVersion.findFirst({ where: { runId, kind: "slow_update" }, orderBy: { step: "desc" } });
  const metas = await db.runEvent.count({ where: { runId, type: "metaSkillUpdated" } });
  await db.$disconnect();
  await page.goto(`/runs/${runId}`);
  await page
    .getByTestId("version-browser")
    .getByRole("button", { name: /open, compare/i })
    .click();
  const list = page.getByTestId("version-list");
  await expect(list.getByTestId("version-seed")).toBeVisible();
  await expect(list.getByTestId("version-candidate:1")).toBeVisible();
  await expect(list.getByTestId("version-final")).toBeVisible();
  expect(slow).not.toBeNull();
  expect(metas).toBeGreaterThan(0);
  await expect(list.getByTestId(`version-slow_update:${slow!.step}`)).toBeVisible();
  await expect(list.locator('[data-testid^="version-meta:"]').first()).toBeVisible();
  // Default: the whole run, seed → final, side by side; the sample's best skill repeats a line verbatim.
  await expect(page.getByTestId("version-pair")).toHaveText(/seed skill → final/);
  await expect(page.getByTestId("version-diff")).toBeVisible();
  await expect(page.getByTestId("repeated-lines")).toContainText(/line \d+ repeats line \d+/);
  await shot(page, "review-versions-side");
  await page.getByRole("button", { name: "Inline", exact: true }).click();
  const inline = page.getByTestId("version-inline");
  await expect(inline.locator('[data-kind="added"]').first()).toBeVisible();
  await expect(inline.locator("mark").first()).toBeVisible();
  await shot(page, "review-versions-inline");
  // A slow update opens as a diff against the skill it started from.
  await list.getByTestId(`version-slow_update:${slow!.step}`).getByRole("button", { name: "Open" }).click();
  await expect(page.getByTestId("version-pair")).toHaveText(/→ after the slow update at step|→ slow update/);
  // Any two: candidate 1 against candidate 2.
  await list.getByRole("radio", { name: "compare from candidate of step 1" }).check();
  await list.getByRole("radio", { name: "compare to candidate of step 2" }).check();
  await expect(page.getByTestId("version-pair")).toHaveText("candidate of step 1 → candidate of step 2");
  // Download the seed: the stored bytes.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    list.getByTestId("version-seed").getByRole("link", { name: "Download" }).click(),
  ]);
  expect(readFileSync((await download.path())!, "utf8")).toBe(seed.content);
});

test("[REVIEW-2]: every item's result at every evaluation, with search, failures-only and changed filters", async ({
  page,
  request,
}) => {
  // The API sends each item's codes; its changes are derived from them as the page does.
  const api = expandItemHistory(
    (await (await request.get(`/api/runs/${runId}/items?split=selection`)).json()) as ItemHistoryWire,
  );
  const db = testDb();
  const row = await db.evalResult.findFirstOrThrow({ where: { runId, label: "selection" }, orderBy: { step: "desc" } });
  await db.$disconnect();
  const col = api.evaluations.findIndex((e) => e.step === row.step);
  const item = api.items.find((i) => i.id === row.itemId)!;
  expect(item.cells[col]).toBe(row.status !== "ok" ? "e" : row.hard >= 1 ? "1" : "0");
  expect((await request.get(`/api/runs/${runId}/items?split=nope`)).status()).toBe(422);

  await page.goto(`/runs/${runId}`);
  await page
    .getByTestId("item-history")
    .getByRole("button", { name: /show every item/i })
    .click();
  const rows = page.getByTestId("item-history-row");
  await expect(rows).toHaveCount(api.items.length);
  const changed = api.items.filter((i) => i.changes.length > 0);
  expect(changed.length).toBeGreaterThan(0);
  await page.getByLabel("Changed only").check();
  await expect(rows).toHaveCount(changed.length);
  await page.getByLabel("Search items").fill(changed[0]!.id);
  await expect(rows).toHaveCount(1);
  await shot(page, "review-item-history");
  await page.getByLabel("Search items").fill("");
  await page.getByLabel("Changed only").uncheck();
  await page.getByLabel("Failures only").check();
  await expect(page.getByTestId("item-history-count")).toContainText(/of \d+ items/);
  // A change opens the step that made it, in view.
  await page.getByLabel("Failures only").uncheck();
  await page.getByLabel("Changed only").check();
  const first = changed[0]!.changes[0]!;
  await rows
    .first()
    .getByRole("button", { name: new RegExp(`step ${first.step}$`) })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`step=${first.step}\\b`));
  await expectDetailInView(page);
  // Train items too.
  await page.getByRole("button", { name: "Train items" }).click();
  await expect(page.getByTestId("item-history-count")).toContainText("train rollouts");
  await expect(rows.first()).toBeVisible();
});

test("[REVIEW-2]: a step whose current skill was not re-measured compares with its last known results", async ({
  page,
  request,
}) => {
  const db = testDb();
  const steps = await db.step.findMany({ where: { runId }, orderBy: { step: "asc" } });
  await db.$disconnect();
  let found: number | null = null;
  for (const s of steps) {
    const d = (await (await request.get(`/api/runs/${runId}/steps/${s.step}`)).json()) as {
      currentKnown: boolean;
      currentFromStep?: number | null;
    };
    if (!d.currentKnown && d.currentFromStep !== null && d.currentFromStep !== undefined) {
      found = s.step;
      break;
    }
  }
  // The sample's slow updates change the current skill without scoring it item by item.
  expect(found).not.toBeNull();
  await page.goto(`/runs/${runId}?step=${found}`);
  await expect(page.getByTestId("selection-last-known")).toContainText("last known per-item results");
  await expect(page.getByTestId("selection-last-known")).not.toContainText("cannot be shown");
});

test("[REVIEW-4]: charts have axis titles, decisions drawn apart, decision tooltips, a range bar on long runs, cost view", async ({
  page,
}) => {
  const db = testDb();
  const steps = await db.step.findMany({ where: { runId } });
  const longRun = await seedBigRun(db, 120, 1200);
  await db.$disconnect();
  const accepted = steps.filter((s) => ["accept", "accept_new_best", "force_accept"].includes(s.action)).length;
  const rejected = steps.filter((s) => s.action === "reject").length;
  await page.goto(`/runs/${runId}`);
  const chart = page.getByTestId("chart-selection");
  await expect(chart.getByText("selection score", { exact: true })).toBeVisible();
  await expect(chart.getByText("step", { exact: true })).toBeVisible();
  // Every accepted and every rejected candidate has its own mark, and the two are drawn differently.
  await expect(chart.locator('[data-decision="accepted"]')).toHaveAttribute("data-marks", String(accepted));
  const acc = await marks(chart, "accepted");
  const rej = await marks(chart, "rejected");
  expect([acc.centres.length, acc.count]).toEqual([accepted, accepted]);
  expect([rej.centres.length, rej.count]).toEqual([rejected, rejected]);
  expect(`${acc.fill} ${acc.stroke}`).not.toBe(`${rej.fill} ${rej.stroke}`);
  await expect(chart.getByText(/^epoch \d+$/).first()).toBeVisible();
  const dot = [...acc.centres, ...rej.centres][0]!;
  await page.mouse.move(dot.x, dot.y);
  await expect(chart.locator(".recharts-tooltip-wrapper")).toContainText(/step \d+/);
  await expect(chart.locator(".recharts-tooltip-wrapper")).toContainText(/vs \d\.\d{3}/);
  await expect(page.getByTestId("chart-cost").locator(".recharts-line").first()).toBeVisible();
  await expect(page.getByTestId("chart-cost").getByText(/tokens used so far/)).toBeVisible();
  // A simulated run has no dollars to plot, and the view says why instead of drawing $0.00 everywhere.
  await expect(page.getByTestId("chart-cost")).toContainText("not dollars: the simulated model costs nothing");
  await shot(page, "review-charts");
  await page.goto(`/runs/${longRun}`);
  await expect(page.getByTestId("chart-selection").getByTestId("step-range")).toBeVisible();
  await shot(page, "review-long-run");
});

/** How many points each line of a chart draws: the distinct x of its path (a step line turns at each twice). */
const pointsPerLine = (chart: Locator) =>
  chart
    .locator("path.recharts-line-curve")
    .evaluateAll((ps) =>
      ps.map((p) => new Set([...(p.getAttribute("d") ?? "").matchAll(/[ML]\s*([-\d.e]+)[ ,]/g)].map((m) => m[1])).size),
    );
const STEP_CHARTS = ["chart-selection", "chart-train", "chart-edits"] as const;

test("[REVIEW-4]: a long run draws at most 300 points a line and every decision's mark; the range bar zooms every chart to every step", async ({
  page,
}) => {
  const db = testDb();
  // Actions cycle accept_new_best, reject, reject, accept, skip: 280 accepted and 280 rejected candidates.
  const longRun = await seedBigRun(db, 700, 700);
  await db.$disconnect();
  await page.goto(`/runs/${longRun}`);
  const chart = page.getByTestId("chart-selection");
  const note = chart.getByTestId("chart-view-note");
  await expect(note).toContainText(/^700 steps, drawn as \d+ points/);
  for (const id of STEP_CHARTS) {
    const counts = await pointsPerLine(page.getByTestId(id));
    expect(counts.length, id).toBeGreaterThan(1);
    for (const n of counts) expect(n, id).toBeGreaterThan(200);
    for (const n of counts) expect(n, id).toBeLessThanOrEqual(302);
  }
  // Thinning the lines keeps every decision's mark.
  await expect(chart.locator('[data-decision="accepted"]')).toHaveAttribute("data-marks", "280");
  await expect(chart.locator('[data-decision="rejected"]')).toHaveAttribute("data-marks", "280");
  await expect(page.getByTestId("chart-selection-legend")).toContainText("candidate");
  await expect(page.getByTestId("chart-edits-legend")).toContainText("budget");

  // Drag the bar's right end to a tenth of its width: the first ~70 steps, every one drawn, on every chart.
  const bar = chart.getByTestId("step-range");
  const track = (await bar.getByRole("group").boundingBox())!;
  const y = track.y + track.height / 2;
  await page.mouse.move(track.x + track.width - 4, y);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * 0.1, y, { steps: 10 });
  await page.mouse.up();
  await expect(note).toContainText(/^Steps 1–\d+ of 700, every step drawn\./);
  const to = Number(await bar.getAttribute("data-to"));
  expect(to).toBeGreaterThan(20);
  expect(to).toBeLessThan(150);
  await expect(note).toContainText(`Steps 1–${to} of 700`);
  for (const id of STEP_CHARTS) {
    await expect.poll(() => pointsPerLine(page.getByTestId(id)), { message: id }).toEqual(expect.arrayContaining([to]));
    for (const n of await pointsPerLine(page.getByTestId(id))) expect(n, id).toBe(to);
  }
  // The marks follow the range: steps 1..to, two in five of them accepted.
  const acceptedInRange = Array.from({ length: to }, (_, i) => (i + 1) % 5).filter((r) => r === 0 || r === 3).length;
  await expect(chart.locator('[data-decision="accepted"]')).toHaveAttribute("data-marks", String(acceptedInRange));
  await shot(page, "review-long-run-zoomed");
  // The keyboard moves either end a step at a time.
  const start = bar.getByRole("slider", { name: "First step shown" });
  await start.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(bar).toHaveAttribute("data-from", "3");
  await expect(note).toContainText(`Steps 3–${to} of 700`);

  await chart.getByRole("button", { name: "Show all steps" }).click();
  await expect(note).toContainText(/^700 steps, drawn as \d+ points/);
  await expect(bar).toHaveAttribute("data-to", "700");
  await expect(chart.locator('[data-decision="accepted"]')).toHaveAttribute("data-marks", "280");
});
