"use client";
import { RUN_PAGE_SIZES } from "@/lib/contracts/run-list";
import { Button } from "../ui/Button";
import { pageCount } from "./runs-view";

const n = (v: number) => v.toLocaleString("en-US");

/** "1–50 of 10,000 · page 1 of 200" with first / previous / next / last and the page size. */
export function RunsPagination({
  page,
  limit,
  total,
  onPage,
  onLimit,
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}) {
  const pages = pageCount(total, limit);
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(page * limit, total);
  return (
    <nav className="flex flex-wrap items-center justify-between gap-2 text-sm text-gray-700" aria-label="Pages">
      <span data-testid="runs-range">
        {n(from)}–{n(to)} of {n(total)} runs · page {page} of {pages}
      </span>
      <div className="flex flex-wrap items-center gap-1">
        <Button disabled={page <= 1} onClick={() => onPage(1)} aria-label="First page">
          «
        </Button>
        <Button disabled={page <= 1} onClick={() => onPage(page - 1)} data-testid="page-prev">
          Previous
        </Button>
        <Button disabled={page >= pages} onClick={() => onPage(page + 1)} data-testid="page-next">
          Next
        </Button>
        <Button disabled={page >= pages} onClick={() => onPage(pages)} aria-label="Last page" data-testid="page-last">
          »
        </Button>
        <label className="ml-2 flex items-center gap-1">
          <span className="text-gray-600">Per page</span>
          <select
            className="rounded-md border border-gray-300 bg-white px-1.5 py-1 text-sm"
            value={limit}
            onChange={(e) => onLimit(Number(e.target.value))}
          >
            {RUN_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
    </nav>
  );
}
