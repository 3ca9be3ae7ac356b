/**
 * A chart's legend drawn as plain HTML above it, in series order. recharts' own `<Legend>` measures its box
 * after mounting and hands the size to the chart, which then lays out and computes its series again; with
 * three 1,000-step charts on a run page that was part of the page's load. This one takes no part in the
 * chart's layout: the chart is just shorter by `LEGEND_HEIGHT` (a legend that wraps on a narrow screen
 * makes the card taller, never the chart smaller).
 */
export const LEGEND_HEIGHT = 20;

export interface LegendItem {
  name: string;
  color: string;
  /** A line's dash pattern (SVG `stroke-dasharray`); none for a solid line. */
  dash?: string;
  /** A line (the default) or a round mark. */
  shape?: "line" | "circle";
  /** A line's width; a wide translucent line is drawn as one. */
  width?: number;
  opacity?: number;
}

export function SeriesLegend({ items, testId }: { items: readonly LegendItem[]; testId?: string }) {
  return (
    <ul
      className="flex flex-wrap items-center justify-center gap-x-3 text-[11px] leading-5 text-gray-600"
      style={{ minHeight: LEGEND_HEIGHT }}
      data-testid={testId}
    >
      {items.map((it, i) => (
        <li key={`${i}-${it.name}`} className="flex min-w-0 items-center gap-1" data-series={it.name}>
          <svg width="14" height="10" aria-hidden className="shrink-0">
            {it.shape === "circle" ? (
              <circle cx="7" cy="5" r="4" fill={it.color} />
            ) : (
              <line
                x1="0"
                x2="14"
                y1="5"
                y2="5"
                stroke={it.color}
                strokeWidth={it.width ?? 2}
                strokeOpacity={it.opacity}
                strokeDasharray={it.dash}
              />
            )}
          </svg>
          <span className="truncate">{it.name}</span>
        </li>
      ))}
    </ul>
  );
}
