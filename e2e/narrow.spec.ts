/**
 * Narrow screens: at 390 px wide no page scrolls sideways (document scrollWidth ≤ viewport width); wide
 * tables scroll inside their own box instead.
 */
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createRunViaApi, shot, startWorker, testDb, waitForStatus, type WorkerProc } from "./helpers";

let worker: WorkerProc;

test.beforeAll(async () => {
  worker = startWorker("e2e-narrow");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});

test.use({ viewport: { width: 390, height: 844 } });

async function expectNoSideScroll(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle").catch(() => {}); // a live page never goes idle; the checks below wait
  const widths = await page.evaluate(() => {
    // The innermost elements sticking out past the right edge (inside no scrolling box): what to fix.
    const scrolls = (el: Element) => ["auto", "scroll", "hidden"].includes(getComputedStyle(el).overflowX);
    const out: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      if (el.getBoundingClientRect().right <= window.innerWidth + 1) continue;
      let p = el.parentElement;
      let clipped = false;
      for (; p && p !== document.body; p = p.parentElement) if (scrolls(p)) clipped = true;
      if (clipped || [...el.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1)) continue;
      const id = el.getAttribute("data-testid");
      out.push(`${el.tagName.toLowerCase()}${id ? `[${id}]` : ""}.${String(el.className).slice(0, 60)}`);
    }
    return {
      doc: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
      view: window.innerWidth,
      offenders: out.slice(0, 6).join(" | "),
    };
  });
  expect(
    widths.doc,
    `${name}: document ${widths.doc}px wide at ${widths.view}px: ${widths.offenders}`,
  ).toBeLessThanOrEqual(widths.view);
  expect(widths.body, `${name}: body ${widths.body}px wide at ${widths.view}px`).toBeLessThanOrEqual(widths.view);
  await shot(page, `narrow-${name}`);
}

test("[NARROW]: no page scrolls sideways at 390 px", async ({ page, request }) => {
  test.setTimeout(180_000);
  const a = await createRunViaApi(request, { "train.num_epochs": 1 }, "narrow screens: a run with a long-ish name");
  const b = await createRunViaApi(request, { "train.num_epochs": 1, "train.seed": 7 });
  await waitForStatus(request, a, "succeeded");
  await waitForStatus(request, b, "succeeded");
  const db = testDb();
  const night = randomUUID();
  await db.sleepNight.create({
    data: {
      id: night,
      projectDir: "/home/someone/projects/a-project-with-a-rather-long-folder-name/and/a/deep/path/inside/it",
      status: "failed",
      trigger: "manual",
      backend: "mock",
      error: `backend failed: ${"x".repeat(200)}`,
      startedAt: new Date(),
      endedAt: new Date(),
    },
  });
  await db.$disconnect();

  await page.goto("/");
  await expect(page.getByTestId("runs-table")).toBeVisible();
  await expectNoSideScroll(page, "runs");
  await page.goto("/runs/new");
  await expect(page.getByTestId("new-run-form")).toBeVisible();
  await expectNoSideScroll(page, "new-run");
  await page.goto(`/runs/${a}`);
  await expect(page.getByTestId("run-status")).toHaveText(/succeeded/i);
  await expect(page.locator('[data-testid^="step-row-"]').first()).toBeVisible();
  await expectNoSideScroll(page, "run");
  await page.goto(`/runs/compare?ids=${a},${b}`);
  await expect(page.getByTestId("compare-chart")).toBeVisible();
  await expect(page.getByTestId("best-skill-diff").getByTestId("step-diff")).toBeVisible();
  await expectNoSideScroll(page, "compare");
  await page.goto("/sleep");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await expectNoSideScroll(page, "sleep");
  await page.goto(`/sleep/nights/${night}`);
  await expect(page.getByText(/backend failed/).first()).toBeVisible();
  await expectNoSideScroll(page, "sleep-night");
});
