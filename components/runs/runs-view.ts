/**
 * The runs table's view (filters, search, sort, page) as it lives in the URL of `/`, so a reload, the back
 * button or a shared link shows the same table. Parsing is forgiving (an unknown value falls back to its
 * default); the server validates again.
 */
import { DEFAULT_RUN_PAGE_SIZE, RUN_PAGE_SIZES, RUN_SORT_KEYS, type RunSortKey } from "@/lib/contracts/run-list";

export interface RunsView {
  status?: string;
  env?: string;
  tag?: string;
  q?: string;
  sort: RunSortKey;
  dir: "asc" | "desc";
  page: number;
  limit: number;
}

/**
 * Rows drawn in the page's first paint: a tall window's worth. The rest of the page (50 rows by default)
 * follows right after that paint, below the fold: laying out and painting rows nobody sees yet made the
 * first rows show later (bench:ui, runs table in the browser).
 */
export const FIRST_PAINT_ROWS = 25;

export const DEFAULT_VIEW: RunsView = { sort: "started", dir: "desc", page: 1, limit: DEFAULT_RUN_PAGE_SIZE };

/** Text columns start ascending (A→Z); numbers and times start with the largest / newest. */
const ASC_FIRST: readonly RunSortKey[] = ["status", "name", "env", "optimizer", "target"];

type Params = { get(name: string): string | null };

export function parseRunsView(p: Params): RunsView {
  const sort = p.get("sort");
  const dir = p.get("dir");
  const page = Number(p.get("page"));
  const limit = Number(p.get("limit"));
  const text = (k: string) => p.get(k)?.trim() || undefined;
  return {
    status: text("status"),
    env: text("env"),
    tag: text("tag"),
    q: text("q"),
    sort: (RUN_SORT_KEYS as readonly string[]).includes(sort ?? "") ? (sort as RunSortKey) : DEFAULT_VIEW.sort,
    dir: dir === "asc" || dir === "desc" ? dir : DEFAULT_VIEW.dir,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: (RUN_PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_VIEW.limit,
  };
}

/** The view as a query string: defaults left out for the page URL, always complete for the API. */
export function runsQueryString(v: RunsView, { forApi = false } = {}): string {
  const q = new URLSearchParams();
  for (const k of ["status", "env", "tag", "q"] as const) if (v[k]) q.set(k, v[k]);
  if (forApi || v.sort !== DEFAULT_VIEW.sort) q.set("sort", v.sort);
  if (forApi || v.dir !== DEFAULT_VIEW.dir) q.set("dir", v.dir);
  if (forApi || v.page !== 1) q.set("page", String(v.page));
  if (forApi || v.limit !== DEFAULT_VIEW.limit) q.set("limit", String(v.limit));
  return q.toString();
}

/** Clicking a column header: the same column flips its direction, another starts in its natural one. */
export function toggleSort(v: RunsView, key: RunSortKey): RunsView {
  const dir = v.sort === key ? (v.dir === "asc" ? "desc" : "asc") : ASC_FIRST.includes(key) ? "asc" : "desc";
  return { ...v, sort: key, dir, page: 1 };
}

/** A changed filter or search starts again at page 1 (page 7 of the old result may not exist). */
export function withFilter(v: RunsView, key: "status" | "env" | "tag" | "q", value: string): RunsView {
  return { ...v, [key]: value.trim() || undefined, page: 1 };
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

export function isFiltered(v: RunsView): boolean {
  return Boolean(v.status || v.env || v.tag || v.q);
}
