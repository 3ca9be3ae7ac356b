"use client";

const STATUSES = [
  "queued",
  "running",
  "cancelling",
  "cancelled",
  "succeeded",
  "failed",
  "interrupted",
  "budget_exhausted",
];

const SELECT =
  "rounded-md border border-gray-300 bg-white px-2 py-1 text-sm shadow-xs focus:border-indigo-500 focus:outline-none";

export function RunFiltersBar({
  status,
  env,
  envs,
  onChange,
}: {
  status: string | undefined;
  env: string | undefined;
  envs: string[];
  onChange: (key: "status" | "env", value: string) => void;
}) {
  // Keep a filter value selectable even when the current page of runs no longer lists it.
  const envOptions = env && !envs.includes(env) ? [env, ...envs] : envs;
  return (
    <div className="flex flex-wrap items-center gap-4 text-sm">
      <div className="flex items-center gap-2">
        <label htmlFor="filter-status" className="text-gray-600">
          Status
        </label>
        <select
          id="filter-status"
          className={SELECT}
          value={status ?? ""}
          onChange={(e) => onChange("status", e.target.value)}
        >
          <option value="">All</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor="filter-env" className="text-gray-600">
          Benchmark
        </label>
        <select id="filter-env" className={SELECT} value={env ?? ""} onChange={(e) => onChange("env", e.target.value)}>
          <option value="">All</option>
          {envOptions.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
