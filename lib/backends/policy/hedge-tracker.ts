/**
 * Learned latencies of an endpoint's calls, per stage: the hedge delays are percentiles of them.
 *
 * A hedged call whose hedge answered first never tells how long its first request would have taken: only
 * that it ran at least until the hedge answered. Recording that lower bound as if it were a latency, or
 * dropping the call, both pull the percentiles down (the dropped or shortened ones are exactly the slow
 * tail), so delays shrink and more calls get hedged than the percentile intends. Such an answer is kept as
 * *censored* instead, and the percentiles are Kaplan–Meier estimates: a censored sample counts in the
 * number of calls still running at every latency up to its bound and says nothing past it. With no censored
 * sample this is the plain nearest-rank percentile.
 */
/** The last `capacity` answered attempts of one stage (a ring buffer); a censored one ran at least `ms`. */
class Window {
  private readonly xs: Array<{ ms: number; censored: boolean }> = [];
  private next = 0;
  constructor(private readonly capacity: number) {}

  add(ms: number, censored: boolean): void {
    const x = { ms, censored };
    if (this.xs.length < this.capacity) this.xs.push(x);
    else this.xs[this.next] = x;
    this.next = (this.next + 1) % this.capacity;
  }

  get size(): number {
    return this.xs.length;
  }

  /**
   * The q-quantile: the first latency at which the Kaplan–Meier estimate of the share of calls answered
   * reaches q (with no censored sample: the nearest-rank quantile). When the censored samples leave the
   * estimate short of q, the largest latency seen (every call of the tail ran at least that long).
   */
  quantile(q: number): number {
    // At equal latencies an answer comes before a censored bound (the usual Kaplan–Meier convention).
    const sorted = [...this.xs].sort((a, b) => a.ms - b.ms || Number(a.censored) - Number(b.censored));
    let surviving = 1;
    for (let i = 0; i < sorted.length; i++) {
      if (sorted[i]!.censored) continue;
      surviving *= 1 - 1 / (sorted.length - i);
      // A small tolerance: (1 - 1/n) products are not exact, and k/n ≥ q must hold at the nearest rank.
      if (1 - surviving >= q - 1e-9) return sorted[i]!.ms;
    }
    return sorted[sorted.length - 1]!.ms;
  }
}

/**
 * Observed latencies per stage of one endpoint (the hedge delay is a percentile of them), and how many
 * first requests are in flight on it (a phase's last calls and lone calls are hedged earlier).
 */
export class LatencyTracker {
  private readonly stages = new Map<string, Window>();
  private readonly all: Window;
  private running = 0;
  constructor(private readonly capacity = 256) {
    this.all = new Window(capacity);
  }

  /** One answered attempt; `censored`: its first request was still running after `ms` (the hedge answered). */
  observe(stage: string, ms: number, censored = false): void {
    let w = this.stages.get(stage);
    if (!w) this.stages.set(stage, (w = new Window(this.capacity)));
    w.add(ms, censored);
    this.all.add(ms, censored);
  }

  /** First requests (not hedges) in flight on the endpoint. */
  get inFlight(): number {
    return this.running;
  }

  /** Counts one first request in flight until the returned function is called (once). */
  begin(): () => void {
    this.running++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
    };
  }

  /** The stage's `percentile` latency, or null while fewer than `minSamples` were observed. */
  delayFor(stage: string, percentile: number, minSamples: number): number | null {
    const w = this.stages.get(stage);
    if (!w || w.size < Math.max(1, minSamples)) return null;
    return w.quantile(percentile);
  }

  /**
   * Like `delayFor`, but while the stage has fewer than `minSamples` answers, the percentile over all the
   * endpoint's stages: a stage of rare single calls (merge, rewrite) would otherwise never learn one.
   */
  tailDelayFor(stage: string, percentile: number, minSamples: number): number | null {
    const own = this.delayFor(stage, percentile, minSamples);
    if (own !== null || this.all.size < Math.max(1, minSamples)) return own;
    return this.all.quantile(percentile);
  }
}

const TRACKERS = new Map<string, LatencyTracker>();

/** The process-wide tracker of one endpoint (`backend` + base URL): every run using it learns from all calls. */
export function sharedTracker(backend: string, baseURL: string): LatencyTracker {
  const key = `${backend} ${baseURL.replace(/\/+$/, "")}`;
  let t = TRACKERS.get(key);
  if (!t) TRACKERS.set(key, (t = new LatencyTracker()));
  return t;
}
