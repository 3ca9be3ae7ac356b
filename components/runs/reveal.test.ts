import { describe, expect, it, vi } from "vitest";
import { revealAfterRender } from "./reveal";

function fakeWindow(top: number, reduce = false) {
  const scrollIntoView = vi.fn();
  const el = { getBoundingClientRect: () => ({ top }), scrollIntoView } as unknown as HTMLElement;
  const win = {
    innerHeight: 900,
    requestAnimationFrame: (cb: FrameRequestCallback) => (cb(0), 1),
    matchMedia: () => ({ matches: reduce }),
  } as unknown as Window;
  return { el, win, scrollIntoView };
}

describe("revealAfterRender", () => {
  it("scrolls a detail below the window to the top, smoothly", () => {
    const { el, win, scrollIntoView } = fakeWindow(1400);
    revealAfterRender(() => el, win);
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
  });
  it("scrolls one above the window too, without animation when reduced motion is asked for", () => {
    const { el, win, scrollIntoView } = fakeWindow(-300, true);
    revealAfterRender(() => el, win);
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: "auto", block: "start" });
  });
  it("leaves a detail that already starts in the upper half of the window", () => {
    const { el, win, scrollIntoView } = fakeWindow(200);
    revealAfterRender(() => el, win);
    expect(scrollIntoView).not.toHaveBeenCalled();
  });
});
