import { describe, expect, it } from "vitest";
import { createFirstPaintStore, type PaintSource } from "./first-paint";

/** A paint source driven by the test: `paint()` is the browser's first contentful paint, `tick()` the timer. */
function fakePaints(paintedAlready = false) {
  let painted = paintedAlready;
  let observer: (() => void) | null = null;
  let timer: (() => void) | null = null;
  const calls = { observe: 0, stopped: 0, timers: 0, cleared: 0 };
  const src: PaintSource = {
    painted: () => painted,
    observe(done) {
      calls.observe += 1;
      observer = done;
      return () => {
        calls.stopped += 1;
        observer = null;
      };
    },
    setTimeout(fn) {
      calls.timers += 1;
      timer = fn;
      return 1;
    },
    clearTimeout() {
      calls.cleared += 1;
      timer = null;
    },
  };
  return {
    src,
    calls,
    paint: () => {
      painted = true;
      observer?.();
    },
    tick: () => timer?.(),
  };
}

describe("createFirstPaintStore", () => {
  it("is false until the first paint, then tells every subscriber once and stays true", () => {
    const f = fakePaints();
    const store = createFirstPaintStore(f.src);
    const heard: string[] = [];
    store.subscribe(() => heard.push("a"));
    store.subscribe(() => heard.push("b"));
    expect(store.getSnapshot()).toBe(false);
    expect(f.calls.observe).toBe(1); // one observer for all subscribers
    f.paint();
    expect(store.getSnapshot()).toBe(true);
    expect(heard).toEqual(["a", "b"]);
    expect(f.calls).toMatchObject({ stopped: 1, cleared: 1 }); // the observer and the fallback timer are dropped
    f.paint();
    f.tick();
    expect(heard).toEqual(["a", "b"]);
  });

  it("is true at once when the page was painted before (a client-side navigation), without observing", () => {
    const f = fakePaints(true);
    const store = createFirstPaintStore(f.src);
    expect(store.getSnapshot()).toBe(true);
    store.subscribe(() => {});
    expect(f.calls.observe).toBe(0);
    expect(f.calls.timers).toBe(0);
  });

  it("turns true after the fallback when no paint is ever reported (no Paint Timing, a hidden tab)", () => {
    const f = fakePaints();
    const store = createFirstPaintStore(f.src, 1000);
    let heard = 0;
    store.subscribe(() => (heard += 1));
    f.tick();
    expect(store.getSnapshot()).toBe(true);
    expect(heard).toBe(1);
    expect(f.calls.stopped).toBe(1);
  });

  it("does not call a listener that unsubscribed", () => {
    const f = fakePaints();
    const store = createFirstPaintStore(f.src);
    let heard = 0;
    const off = store.subscribe(() => (heard += 1));
    off();
    f.paint();
    expect(heard).toBe(0);
    expect(store.getSnapshot()).toBe(true);
  });
});
