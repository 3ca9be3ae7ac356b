"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { RunSortKey } from "@/lib/contracts/run-list";
import { Button, ButtonLink } from "../ui/Button";
import { Notice } from "../ui/Notice";
import { RunFiltersBar } from "./RunFiltersBar";
import { RunsPagination } from "./RunsPagination";
import { RunsTable } from "./RunsTable";
import {
  isFiltered,
  pageCount,
  parseRunsView,
  runsQueryString,
  toggleSort,
  withFilter,
  type RunsView,
} from "./runs-view";
import { useRuns, type RunsSeed } from "./use-runs";

/**
 * `/` — every run: search, filters, sort and page live in the URL; the table refreshes by itself. `seed`
 * is the page the server rendered (shown at once, without a client fetch).
 */
export function RunsPage({ seed }: { seed?: RunsSeed }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const view = useMemo(() => parseRunsView(params), [params]);
  const { runs, total, envs, tags, isPending, isPlaceholderData, error, data } = useRuns(view, seed);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  // The browser's history API, not router.replace: the URL and useSearchParams follow, the table fetches
  // the new view itself, and the server does not render the page again for every sort or page click.
  const go = useCallback(
    (next: RunsView) => {
      const q = runsQueryString(next);
      window.history.replaceState(null, "", q ? `${pathname}?${q}` : pathname);
    },
    [pathname],
  );
  const setFilter = useCallback(
    (key: "status" | "env" | "tag" | "q", value: string) => go(withFilter(view, key, value)),
    [go, view],
  );
  // A page that no longer exists (runs deleted, a narrower filter) moves to the last one.
  const pages = pageCount(total, view.limit);
  useEffect(() => {
    if (data && !isPlaceholderData && view.page > pages) go({ ...view, page: pages });
  }, [data, isPlaceholderData, view, pages, go]);

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const chosen = [...selected];

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-lg font-semibold">Runs</h1>
        <div className="flex items-center gap-2">
          {chosen.length > 0 && (
            <Button variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          )}
          <Button
            disabled={chosen.length < 2 || chosen.length > 8}
            title={
              chosen.length < 2
                ? "Select two or more runs to compare them"
                : chosen.length > 8
                  ? "Compare at most eight runs"
                  : undefined
            }
            onClick={() => router.push(`/runs/compare?ids=${chosen.join(",")}`)}
          >
            Compare{chosen.length > 0 ? ` (${chosen.length})` : ""}
          </Button>
          <ButtonLink href="/runs/new" variant="primary">
            New run
          </ButtonLink>
        </div>
      </div>
      <RunFiltersBar
        status={view.status}
        env={view.env}
        tag={view.tag}
        q={view.q}
        envs={envs}
        tags={tags}
        onChange={setFilter}
      />
      {error && (
        <Notice tone="error" title="Could not load runs">
          {error.message}
        </Notice>
      )}
      {!(error && !data) && (
        <RunsTable
          runs={runs}
          loading={isPending}
          filtered={isFiltered(view)}
          view={view}
          now={seed?.at}
          onSort={(key: RunSortKey) => go(toggleSort(view, key))}
          selected={selected}
          onToggle={toggle}
          onClearFilters={() => window.history.replaceState(null, "", pathname)}
        />
      )}
      {data && total > 0 && (
        <RunsPagination
          page={view.page}
          limit={view.limit}
          total={total}
          onPage={(page) => go({ ...view, page })}
          onLimit={(limit) => go({ ...view, limit, page: 1 })}
        />
      )}
    </div>
  );
}
