"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button, ButtonLink } from "../ui/Button";
import { Notice } from "../ui/Notice";
import { RunFiltersBar } from "./RunFiltersBar";
import { RunsTable } from "./RunsTable";
import { useRuns } from "./use-runs";

/** `/` — every run, filterable by status and benchmark through the URL. */
export function RunsPage() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = { status: params.get("status") ?? undefined, env: params.get("env") ?? undefined };
  const { runs, envs, isPending, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useRuns(filters);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const setFilter = (key: "status" | "env", value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    const q = next.toString();
    router.replace(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const chosen = runs.filter((r) => selected.has(r.id)).map((r) => r.id);
  const filtered = Boolean(filters.status || filters.env);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-lg font-semibold">Runs</h1>
        <div className="flex items-center gap-2">
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
      <RunFiltersBar status={filters.status} env={filters.env} envs={envs} onChange={setFilter} />
      {error && (
        <Notice tone="error" title="Could not load runs">
          {error.message}
        </Notice>
      )}
      {!error && (
        <RunsTable
          runs={runs}
          loading={isPending}
          filtered={filtered}
          selected={selected}
          onToggle={toggle}
          onClearFilters={() => router.replace(pathname, { scroll: false })}
        />
      )}
      {hasNextPage && (
        <div className="flex justify-center">
          <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? "Loading…" : "Load more runs"}
          </Button>
        </div>
      )}
    </div>
  );
}
