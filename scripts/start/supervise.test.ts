import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { backoffMs, superviseWorker } from "./supervise";

/** A fake worker process and a hand-driven clock and timer queue. */
function harness() {
  let t = 0;
  const timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 0;
  const children: EventEmitter[] = [];
  const lines: string[] = [];
  const sup = superviseWorker({
    spawn: () => {
      const c = new EventEmitter();
      children.push(c);
      return c as unknown as ChildProcess;
    },
    say: (l) => lines.push(l),
    now: () => t,
    setTimer: (fn, ms) => {
      const id = ++nextId;
      timers.push({ at: t + ms, fn, id });
      return id;
    },
    clearTimer: (id) =>
      timers.splice(
        timers.findIndex((x) => x.id === id),
        1,
      ),
  });
  const advance = (ms: number) => {
    t += ms;
    for (const due of timers.filter((x) => x.at <= t)) {
      timers.splice(timers.indexOf(due), 1);
      due.fn();
    }
  };
  const die = (code: number | null, signal: string | null = null) => children.at(-1)!.emit("exit", code, signal);
  return { sup, children, lines, advance, die, pending: () => timers.length };
}

describe("npm start's worker supervision", () => {
  it("doubles the wait for a worker that keeps dying, up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("restarts a worker that died, after the backoff, and logs why", () => {
    const h = harness();
    expect(h.children).toHaveLength(1);
    h.die(null, "SIGKILL");
    expect(h.sup.current()).toBeNull();
    expect(h.lines).toEqual([
      "worker exited (signal SIGKILL) while the dashboard runs; restarting it in 1 s (restart 1; runs it held resume from their last step)",
    ]);
    h.advance(999);
    expect(h.children).toHaveLength(1);
    h.advance(1);
    expect(h.children).toHaveLength(2);
    expect(h.sup.current()).toBe(h.children[1]);
    // Dying again at once: 2 s, then 4 s.
    h.die(1);
    expect(h.lines.at(-1)).toMatch(/^worker exited \(code 1\) .* in 2 s \(restart 2;/);
    h.advance(2000);
    h.die(1);
    expect(h.lines.at(-1)).toMatch(/in 4 s \(restart 3;/);
    h.advance(4000);
    expect(h.children).toHaveLength(4);
  });

  it("starts from 1 s again after a worker stayed up for a minute", () => {
    const h = harness();
    h.die(1);
    h.advance(1000);
    h.die(1);
    h.advance(2000);
    h.advance(60_000); // the third worker runs healthily
    h.die(null, "SIGKILL");
    expect(h.lines.at(-1)).toMatch(/in 1 s \(restart 3;/);
  });

  it("does not restart once stopped (Ctrl-C), not even a worker that exits during shutdown", () => {
    const h = harness();
    h.die(1);
    h.sup.stop();
    expect(h.pending()).toBe(0);
    h.advance(60_000);
    expect(h.children).toHaveLength(1);
    const g = harness();
    g.sup.stop();
    g.die(0);
    expect(g.lines).toEqual([]);
    expect(g.pending()).toBe(0);
  });
});
