/**
 * Where a run page's load goes, read from the page itself (Navigation and Resource Timing, in ms from the
 * navigation's start): the HTML, the run detail and the step detail requests, and the time the page was
 * measured. Printed by `bench:ui` next to the run page's figure so a change can be aimed at its share.
 */
import type { Page } from "@playwright/test";

export interface RunPageTimeline {
  /** The HTML's last byte. */
  html: number;
  /** The run detail request (GET /api/runs/<id>): start and last byte. */
  detailStart: number;
  detailEnd: number;
  /** The step detail request (GET /api/runs/<id>/steps/<n>) the page made first: start and last byte. */
  stepStart: number;
  stepEnd: number;
  /** When the page was asked (right after the selection table showed). */
  now: number;
}

export async function runPageTimeline(page: Page): Promise<RunPageTimeline> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const res = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    // No named helper in here: tsx names them with a `__name` call the page does not have.
    const detail = res.find((e) => /^\/api\/runs\/[^/]+$/.test(new URL(e.name).pathname));
    const step = res.find((e) => /^\/api\/runs\/[^/]+\/steps\/\d+$/.test(new URL(e.name).pathname));
    return {
      html: nav?.responseEnd ?? Number.NaN,
      detailStart: detail?.startTime ?? Number.NaN,
      detailEnd: detail?.responseEnd ?? Number.NaN,
      stepStart: step?.startTime ?? Number.NaN,
      stepEnd: step?.responseEnd ?? Number.NaN,
      now: performance.now(),
    };
  });
}

/** The medians of each mark, as one line: "html 120 · detail 300→420 · step 610→650 · shown 900 ms". */
export function describeTimelines(ts: readonly RunPageTimeline[]): string {
  const med = (k: keyof RunPageTimeline) => {
    const xs = ts.map((t) => t[k]).sort((a, b) => a - b);
    const v = xs[Math.floor(xs.length / 2)];
    return v === undefined || Number.isNaN(v) ? "—" : v.toFixed(0);
  };
  return `html ${med("html")} · run detail ${med("detailStart")}→${med("detailEnd")} · step detail ${med("stepStart")}→${med("stepEnd")} · shown ${med("now")} ms`;
}
