/**
 * Small states of the run page and the new-run form: a run without a best skill yet says so plainly (not
 * as an error), the event log keeps a bounded height with its own scroll, and long preset titles are
 * shown in full on a 390 px screen; the nav links are prefetched on hover, not at every page load.
 */
import { expect, test } from "@playwright/test";
import type { PresetInfo } from "../lib/contracts/api";
import { seedRun } from "../tests/helpers/runs";
import { shot, testDb } from "./helpers";

test("[RUN]: a fresh running run says plainly there is no best skill yet, and its event log has a bounded height", async ({
  page,
}) => {
  const db = testDb();
  // A heartbeat in the future: the dashboard never takes this run for a lost worker's.
  const id = await seedRun(db, {
    name: `e2e no best yet ${Math.random().toString(36).slice(2, 8)}`,
    status: "running",
    startedAt: new Date(),
    heartbeatAt: new Date(2100, 0, 1),
    stepsTotal: 8,
  });
  try {
    const blameCalls: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith("/blame")) blameCalls.push(r.url());
    });
    await page.goto(`/runs/${id}`);
    const blame = page.getByTestId("blame-view");
    await expect(blame.getByTestId("blame-no-best")).toHaveText(/No best skill yet/);
    await expect(page.getByText("Could not load the blame")).toHaveCount(0);
    await expect(blame.locator(".text-red-700, [role=alert]")).toHaveCount(0);
    expect(blameCalls).toEqual([]);

    // The log's card is exactly as tall as its frame (32rem), whatever the panels beside it hold.
    const frame = (await page.getByTestId("event-log-frame").boundingBox())!;
    const card = (await page.getByTestId("event-log").boundingBox())!;
    expect(frame.height).toBeLessThanOrEqual(32 * 16 + 1);
    expect(Math.abs(card.height - frame.height)).toBeLessThanOrEqual(1);
    await blame.scrollIntoViewIfNeeded();
    await shot(page, "run-no-best-yet");
  } finally {
    await db.run.update({ where: { id }, data: { status: "cancelled", finishedAt: new Date() } });
    await db.$disconnect();
  }
});

test("[NEW-RUN]: long preset titles are shown in full on a 390 px screen, with the title as a tooltip", async ({
  page,
  request,
}) => {
  const { presets } = (await (await request.get("/api/presets")).json()) as { presets: PresetInfo[] };
  const longest = presets.filter((p) => !p.error).sort((a, b) => b.title.length - a.title.length)[0]!;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/runs/new");
  const select = page.getByLabel("Preset", { exact: true });
  await select.selectOption(longest.path);
  await expect(page.getByTestId("preset-title")).toHaveText(longest.title);
  await expect(select).toHaveAttribute("title", new RegExp(`${longest.path} — `));
  // The full title wraps inside the screen: nothing sticks out to the right.
  const box = (await page.getByTestId("preset-title").boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "new-run-preset-390");
});

test("[NAV]: the nav links and link buttons are prefetched when the pointer or focus reaches them, not at every page load", async ({
  page,
}) => {
  // A prefetch is a request for the route's server components (`?_rsc=`), made without a navigation.
  const prefetched: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.searchParams.has("_rsc")) prefetched.push(url.pathname);
  });
  await page.goto("/sleep");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "New run" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(prefetched).toEqual([]);
  await nav.getByRole("link", { name: "New run" }).hover();
  await expect.poll(() => prefetched).toContain("/runs/new");
  expect(prefetched).not.toContain("/");
  await nav.getByRole("link", { name: "New run" }).click();
  await expect(page).toHaveURL(/\/runs\/new$/);

  // The runs table's "New run" button (a ButtonLink) too: in view at load, it made the server render the
  // new-run form twice at every load of the runs table.
  prefetched.length = 0;
  await page.goto("/");
  const button = page.getByRole("main").getByRole("link", { name: "New run" });
  await expect(button).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(prefetched).toEqual([]);
  await button.focus();
  await expect.poll(() => prefetched).toContain("/runs/new");
});
