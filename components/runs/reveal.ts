/**
 * Brings an element into view once the next frame has rendered (the URL change that selects a step
 * re-renders the detail first), unless it already starts inside the window. Smooth unless the user
 * asked for reduced motion.
 */
export function revealAfterRender(target: () => HTMLElement | null, win: Window = window): void {
  win.requestAnimationFrame(() => {
    const el = target();
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    if (top >= 0 && top < win.innerHeight * 0.5) return;
    const reduce = win.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    el.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  });
}
