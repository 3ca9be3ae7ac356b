/**
 * bench:ui's runs table in the browser: navigation to `/` → the first page of rows painted. The rows come in
 * the server's HTML. The figure is the browser's own: the Element Timing entry of the first run name painted
 * (`elementtiming="run-name"` on each row's name cell), from the navigation's start. Also taken: the same
 * seen from the harness (the first row found in the page, then the next frame), which adds its round trips
 * to the browser, and the load event (which also waits for every script). Each open starts from a quiet
 * page (no request for 500 ms), as the run page's do. The first `warm` opens (right
 * after 9,000 runs were written: a cold server and database) are kept apart. BENCH_DEBUG=1 prints each
 * open's navigation timings.
 */
import type { Page } from "@playwright/test";

export interface RunsTableTimes {
  /** First-row paint times of the cold opens. */
  warm: number[];
  painted: number[];
  shown: number[];
  loaded: number[];
}

export async function measureRunsTable(
  page: Page,
  base: string,
  opts: { warm: number; opens: number; say: (m: string) => void },
): Promise<RunsTableTimes> {
  const out: RunsTableTimes = { warm: [], painted: [], shown: [], loaded: [] };
  for (let i = 0; i < opts.warm + opts.opens; i++) {
    const t = performance.now();
    await page.goto(`${base}/`, { waitUntil: "commit" });
    await page.locator('[data-testid^="run-row-"]').first().waitFor();
    // …and the next frame: it is not painted while a stylesheet is still loading.
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    const shown = performance.now() - t;
    await page.waitForLoadState("load");
    const loaded = performance.now() - t;
    const painted = await firstPainted(page, "run-name");
    // The next open starts from a quiet page, as a user's would (and as the run page's opens do): not
    // while this page's late requests still hold the server's one thread.
    await page.waitForLoadState("networkidle");
    if (process.env.BENCH_DEBUG) {
      const nav = await page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0]; return [n.responseStart, n.responseEnd, n.domContentLoadedEventEnd].map(Math.round).join(' / '); })()",
      );
      opts.say(
        `runs table open ${i}: painted ${painted.toFixed(0)} ms (first byte / last byte / DOMContentLoaded: ${String(nav)} ms)`,
      );
    }
    if (i < opts.warm) {
      out.warm.push(painted);
      continue;
    }
    out.painted.push(painted);
    out.shown.push(shown);
    out.loaded.push(loaded);
  }
  return out;
}

/**
 * When the browser first painted an element marked `elementtiming="<identifier>"` (the earliest such entry),
 * in ms from the navigation's start; fails when none was painted.
 */
async function firstPainted(page: Page, identifier: string): Promise<number> {
  // A string: tsx would wrap a named function inside a callback in a `__name` helper the page lacks.
  const at = (await page.evaluate(`new Promise((resolve) => {
    const seen = [];
    const done = () => resolve(seen.length ? Math.min(...seen) : null);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.identifier === ${JSON.stringify(identifier)}) seen.push(e.renderTime || e.loadTime);
      done();
    }).observe({ type: "element", buffered: true });
    setTimeout(done, 1000);
  })`)) as number | null;
  if (at === null) throw new Error(`no element marked elementtiming="${identifier}" was painted`);
  return at;
}
