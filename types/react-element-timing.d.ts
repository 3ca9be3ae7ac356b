/**
 * The Element Timing attribute (https://wicg.github.io/element-timing/), which React passes through as
 * written but its types do not list. An element that carries it and paints text of its own (Chromium counts
 * text towards its block container, such as a table cell) gets a PerformanceElementTiming entry with the
 * time it was first painted: `npm run bench:ui` reads the runs table's first painted row from it.
 */
import "react";

declare module "react" {
  // The type parameter must match React's own declaration for the two to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
