/**
 * The runs table against a real server: sort, search, tags and note, delete with confirmation (an active
 * run refused), numbered pages past 1,000 runs, and refreshing by itself when runs appear or finish.
 * Rows are seeded straight into the database, each test under its own random prefix, dated in the past
 * so they never crowd the first page other specs look at.
 */
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { FIRST_PAINT_ROWS } from "../components/runs/runs-view";
import { seedRun } from "../tests/helpers/runs";
import { shot, testDb } from "./helpers";

const prefix = () => `tbl-${Math.random().toString(36).slice(2, 8)}`;
const past = (s: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, s));
const rowNames = (page: Page) => page.locator('[data-testid^="run-row-"] td:nth-child(3) a').allTextContents();
/**
 * The first page comes in the server's HTML, before the page's scripts run: a click then would do nothing.
 * The table's first refresh of its own (every 3 s) says the scripts are running.
 */
const tableLive = (page: Page) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === "/api/runs", { timeout: 60_000 });

test("[RUNS-TABLE]: sorts by test gain and cost, searches, edits tags and a note, and deletes after confirming", async ({
  page,
}) => {
  test.setTimeout(240_000); // many steps, each a round trip to a busy server
  const p = prefix();
  const db = testDb();
  const low = await seedRun(db, { name: `${p} low`, createdAt: past(1), testInitial: 0.5, testBest: 0.55, costUsd: 3 });
  const high = await seedRun(db, {
    name: `${p} high`,
    createdAt: past(2),
    testInitial: 0.2,
    testBest: 0.6,
    costUsd: 1,
  });
  const busy = await seedRun(db, {
    name: `${p} busy`,
    createdAt: past(3),
    status: "running",
    heartbeatAt: new Date(2100, 0, 1),
  });
  const live = tableLive(page);
  await page.goto(`/?q=${p}`);
  await expect(page.getByTestId("runs-range")).toHaveText(/1–3 of 3 runs/);
  await live;
  await page.getByTestId("sort-testGain").click();
  await expect.poll(() => rowNames(page)).toEqual([`${p} high`, `${p} low`, `${p} busy`]);
  await expect(page.getByTestId(`run-row-${high}`).getByTestId("test-gain")).toHaveText("+0.400");
  await page.getByTestId("sort-cost").click();
  await page.getByTestId("sort-cost").click();
  await expect(page).toHaveURL(/sort=cost&dir=asc/);
  await expect.poll(() => rowNames(page)).toEqual([`${p} high`, `${p} low`, `${p} busy`]);

  // Tags and note: a tag with a space is refused with the field's message, nothing saved.
  await page.getByTestId(`run-row-${low}`).getByTestId("annotate-run").click();
  await page.getByTestId("tags-input").fill("ablation, bad#tag");
  await page.getByTestId("save-annotations").click();
  await expect(page.getByTestId("annotations-dialog")).toContainText("tags.1: a tag is letters");
  await page.getByTestId("tags-input").fill(`ablation ${p}-x`);
  await page.getByTestId("note-input").fill("Lower learning rate; compare with the high run.");
  await shot(page, "runs-table-annotate");
  await page.getByTestId("save-annotations").click();
  await expect(page.getByTestId("annotations-dialog")).toHaveCount(0);
  await expect(page.getByTestId(`run-row-${low}`).getByTestId("run-tags")).toHaveText(/ablation/);
  await expect(page.getByTestId(`run-row-${low}`).getByTestId("run-note")).toHaveText(/Lower learning rate/);
  // The search finds the note and the tag too.
  await page.getByTestId("runs-search").fill(`${p}-x`);
  await expect.poll(() => rowNames(page)).toEqual([`${p} low`]);
  await page.getByTestId("runs-search").fill(p);
  await expect.poll(async () => (await rowNames(page)).length).toBe(3);
  await shot(page, "runs-table");

  // An active run cannot be deleted: the dialog says to cancel it first.
  await page.getByTestId(`run-row-${busy}`).getByTestId("delete-run").click();
  await expect(page.getByTestId("delete-dialog")).toContainText("Cancel it first");
  await expect(page.getByTestId("confirm-delete")).toHaveCount(0);
  await page.keyboard.press("Escape");
  // Delete asks first; "Keep it" keeps it, "Delete run" removes the row and the database row.
  await page.getByTestId(`run-row-${high}`).getByTestId("delete-run").click();
  await shot(page, "runs-table-delete");
  await page.getByRole("button", { name: "Keep it" }).click();
  await expect(page.getByTestId(`run-row-${high}`)).toBeVisible();
  await page.getByTestId(`run-row-${high}`).getByTestId("delete-run").click();
  await page.getByTestId("confirm-delete").click();
  await expect(page.getByTestId(`run-row-${high}`)).toHaveCount(0);
  expect(await db.run.findUnique({ where: { id: high } })).toBeNull();
  expect(await db.run.findUnique({ where: { id: busy } })).not.toBeNull();
  await db.run.update({ where: { id: busy }, data: { status: "cancelled" } });
  await db.$disconnect();
});

test("[RUNS-TABLE]: pages through more than 1,000 runs with a total, to the last page", async ({ page }) => {
  test.setTimeout(240_000);
  const p = prefix();
  const db = testDb();
  const n = 1030;
  await db.run.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      name: `${p} #${String(i).padStart(4, "0")}`,
      status: "succeeded",
      env: "searchqa",
      configJson: "{}",
      sourceYaml: "",
      optimizerBackend: "sim",
      optimizerModel: "sim-optimizer",
      targetBackend: "sim",
      targetModel: "sim-target",
      seedSkill: "",
      createdAt: past(i),
    })),
  });
  await db.$disconnect();
  const live = tableLive(page);
  await page.goto(`/?q=${encodeURIComponent(p)}&limit=200&sort=name&dir=asc`);
  await expect(page.getByTestId("runs-range")).toHaveText("1–200 of 1,030 runs · page 1 of 6");
  await live;
  await page.getByTestId("page-last").click();
  await expect(page.getByTestId("runs-range")).toHaveText("1,001–1,030 of 1,030 runs · page 6 of 6");
  await expect.poll(async () => (await rowNames(page)).at(-1)).toBe(`${p} #1029`);
  await page.getByTestId("page-prev").click();
  await expect(page.getByTestId("runs-range")).toHaveText(/801–1,000 of 1,030/);
  await shot(page, "runs-table-pages");
});

test("[RUNS-TABLE]: a run created or finished elsewhere shows up without a reload", async ({ page }) => {
  const p = prefix();
  const db = testDb();
  const first = await seedRun(db, { name: `${p} first`, status: "running", heartbeatAt: new Date(2100, 0, 1) });
  await page.goto(`/?q=${p}`);
  await expect(page.getByTestId(`run-row-${first}`)).toContainText(/running/i);
  await tableLive(page);
  const later = await seedRun(db, { name: `${p} later` });
  await expect(page.getByTestId(`run-row-${later}`)).toBeVisible({ timeout: 10_000 });
  await db.run.update({ where: { id: first }, data: { status: "succeeded", finishedAt: new Date() } });
  await expect(page.getByTestId(`run-row-${first}`)).toContainText(/succeeded/i, { timeout: 10_000 });
  await db.$disconnect();
});

test("[RUNS-TABLE]: the first page is in the server’s HTML, and the rows show without the browser asking for them", async ({
  page,
  request,
}) => {
  const p = prefix();
  const db = testDb();
  const id = await seedRun(db, { name: `${p} served`, testInitial: 0.3, testBest: 0.5 });
  await db.$disconnect();
  // Without any script: the rows are rendered by the server.
  const html = await (await request.get(`/?q=${p}`)).text();
  expect(html).toContain(`data-testid="run-row-${id}"`);
  expect(html).toContain(`${p} served`);
  // …in the page itself, not streamed behind a "Loading runs…" fallback into a hidden block that React
  // swaps in no sooner than 300 ms after painting the fallback (its throttle on revealing boundaries).
  expect(html).not.toContain("Loading runs…");
  expect(html.indexOf(`data-testid="run-row-${id}"`)).toBeLessThan(html.search(/<div hidden id="S:|$/));
  // In the browser: the rows show without /api/runs — every list request is refused until they are on screen,
  // so a page that needed the fetch would show no rows (the refresh timing does not matter).
  const listCalls: string[] = [];
  const isList = (u: URL) => u.pathname === "/api/runs";
  await page.route(isList, (route) => route.abort());
  page.on("request", (r) => {
    if (isList(new URL(r.url()))) listCalls.push(r.url());
  });
  await page.goto(`/?q=${p}`);
  await expect(page.getByTestId(`run-row-${id}`).getByTestId("test-gain")).toHaveText("+0.200");
  await expect(page.getByTestId("runs-range")).toHaveText(/1–1 of 1 runs/);
  await page.unroute(isList);
  // Once the scripts run the table refreshes by itself; sorting asks the API for the new view, and the URL follows.
  await tableLive(page);
  await page.getByTestId("sort-name").click();
  await expect(page).toHaveURL(/sort=name&dir=asc/);
  await expect.poll(() => listCalls.some((u) => u.includes("sort=name"))).toBe(true);
  await expect(page.getByTestId(`run-row-${id}`)).toBeVisible();
});

test("[RUNS-TABLE]: the rows' run links are not prefetched (a server render of each visible run page per visit)", async ({
  page,
}) => {
  const p = prefix();
  const db = testDb();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await seedRun(db, { name: `${p} run ${i}`, createdAt: past(10 + i) }));
  await db.$disconnect();
  const runPages: string[] = [];
  page.on("request", (r) => {
    const { pathname } = new URL(r.url());
    if (/^\/runs\/[0-9a-f-]{36}$/.test(pathname)) runPages.push(pathname);
  });
  const live = tableLive(page);
  await page.goto(`/?q=${p}`);
  await expect(page.getByTestId(`run-row-${ids[0]}`)).toBeVisible();
  await live;
  await page.waitForLoadState("networkidle");
  expect(runPages).toEqual([]);
  // A click still opens the run.
  await page
    .getByTestId(`run-row-${ids[1]}`)
    .getByRole("link", { name: `${p} run 1` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/runs/${ids[1]}$`));
});

test("[RUNS-TABLE]: keeps to a 1,440 px window with long values: no sideways scroll, the row actions in view", async ({
  page,
}) => {
  // Wider than its box, the table scrolls sideways inside it: the Tags and Delete buttons go out of view, and
  // the browser paints the scrolled box as a layer of its own (the first rows were painted ≈100 ms later).
  const p = prefix();
  const db = testDb();
  const id = await seedRun(db, {
    name: `${p} ablation of the analyst prompt with a much lower learning rate and a longer schedule`,
    status: "failed",
    errorMessage: "openai-compatible: the server answered 503 Service Unavailable five times in a row; giving up",
    env: "spreadsheetbench",
    simulated: false,
    optimizerBackend: "anthropic",
    optimizerModel: "claude-sonnet-4-6",
    targetBackend: "openai-compatible",
    targetModel: "meta-llama/Llama-3.1-70B-Instruct",
    stepsDone: 1000,
    stepsTotal: 1000,
    baselineScore: 0.123,
    bestScore: 0.987,
    testInitial: 0.1,
    testBest: 0.95,
    promptTokens: 123_456_789,
    completionTokens: 9_876_543,
    costUsd: 12_345.67,
    createdAt: past(5),
    startedAt: past(5),
    finishedAt: new Date(Date.UTC(2020, 0, 9)),
    tags: ["ablation", "lr-sweep"],
    note: "Lower learning rate, longer schedule; compare with the baseline sweep.",
  });
  await db.$disconnect();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/?q=${p}`);
  const row = page.getByTestId(`run-row-${id}`);
  await expect(row).toContainText("1000/1000");
  const overflow = await page
    .getByTestId("runs-table")
    .evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const del = (await row.getByTestId("delete-run").boundingBox())!;
  expect(del.x + del.width).toBeLessThanOrEqual(1440);
  // A long model name is cut, and the whole "backend · model" is its tooltip.
  await expect(row.getByTitle("openai-compatible · meta-llama/Llama-3.1-70B-Instruct")).toContainText("meta-llama/");
  await shot(page, "runs-table-1440");
});

test("[RUNS-TABLE]: the first paint has a window's worth of rows, the rest of the page follows it", async ({
  page,
  request,
}) => {
  const p = prefix();
  const db = testDb();
  const n = FIRST_PAINT_ROWS + 5;
  for (let i = 0; i < n; i++) await seedRun(db, { name: `${p} #${String(i).padStart(2, "0")}`, createdAt: past(i) });
  await db.$disconnect();
  const html = await (await request.get(`/?q=${p}`)).text();
  expect(html.match(/data-testid="run-row-/g)).toHaveLength(FIRST_PAINT_ROWS);
  await page.goto(`/?q=${p}`);
  await expect(page.locator('[data-testid^="run-row-"]')).toHaveCount(n);
  await expect(page.getByTestId("runs-range")).toHaveText(`1–${n} of ${n} runs · page 1 of 1`);
});
