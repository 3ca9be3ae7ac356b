/**
 * bench:ui's item-history part: opening "Show every item" on a 1,000-step run page that has finished loading.
 */
import type { CDPSession, Page } from "@playwright/test";
import { busyMs } from "./ui-setup";

export interface Timed {
  wall: number[];
  busy: number[];
}

export interface HistoryTimed extends Timed {
  /** The items answer alone: request start → last byte (Resource Timing), per open. */
  fetch: number[];
}

/**
 * Waits until the run page has finished loading: its deferred panels are mounted (no `aria-busy`
 * placeholder left, so the item-history panel is there), nothing is on the network for 500 ms, and the
 * main thread has had an idle period of at least 40 ms (no task queued behind the panels' first render).
 */
async function settle(page: Page) {
  await page.getByTestId("chart-selection").waitFor();
  await page.getByTestId("item-history").waitFor();
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached" });
  await page.waitForLoadState("networkidle");
  // A string: tsx would wrap a named function inside a callback in a `__name` helper the page lacks.
  await page.evaluate(`new Promise((resolve) => {
    const wait = () => requestIdleCallback((d) => (d.timeRemaining() >= 40 ? resolve() : wait()), { timeout: 5000 });
    wait();
  })`);
}

/**
 * Times from the click on "Show every item" to the 40th item row drawn (the next frame after it is in the
 * DOM), on a run page that has finished loading (`settle`): what a user feels when opening the view. Up
 * to this session the click came as soon as the selection chart showed, while the deferred panels were
 * still mounting, so the figure also held part of the page's own load. Everything after the click stays
 * in it: the request, the server reading 40,000 results, parsing, deriving the current results and the
 * fixed/broken steps, React's render and the strips' drawing.
 */
export async function measureItemHistory(page: Page, cdp: CDPSession, url: string, n: number): Promise<HistoryTimed> {
  const out: HistoryTimed = { wall: [], busy: [], fetch: [] };
  for (let i = 0; i <= n; i++) {
    await page.goto(url);
    await settle(page);
    await page.evaluate(() => performance.clearResourceTimings());
    const b = await busyMs(cdp);
    const t = performance.now();
    await page
      .getByTestId("item-history")
      .getByRole("button", { name: /show every item/i })
      .click();
    await page.getByTestId("item-history-row").nth(39).waitFor();
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    const wall = performance.now() - t;
    const fetchMs = await page.evaluate(() => {
      const e = performance.getEntriesByType("resource").find((r) => r.name.includes("/items?split=selection")) as
        PerformanceResourceTiming | undefined;
      return e ? e.responseEnd - e.startTime : NaN;
    });
    if (i > 0) {
      out.wall.push(wall);
      out.busy.push((await busyMs(cdp)) - b);
      out.fetch.push(fetchMs);
    }
  }
  return out;
}
