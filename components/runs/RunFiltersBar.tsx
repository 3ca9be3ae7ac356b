"use client";
import { useEffect, useState } from "react";
import { RUN_STATUSES } from "@/lib/contracts/run-status";

const SELECT =
  "rounded-md border border-gray-300 bg-white px-2 py-1 text-sm shadow-xs focus:border-indigo-500 focus:outline-none";
/** Typing pauses this long before the search reaches the URL (and the server). */
const SEARCH_DEBOUNCE_MS = 250;

type Key = "status" | "env" | "tag" | "q";

export function RunFiltersBar({
  status,
  env,
  tag,
  q,
  envs,
  tags,
  onChange,
}: {
  status: string | undefined;
  env: string | undefined;
  tag: string | undefined;
  q: string | undefined;
  envs: string[];
  tags: string[];
  onChange: (key: Key, value: string) => void;
}) {
  const [text, setText] = useState(q ?? "");
  // The URL's search changed elsewhere (back button, a tag link): the box follows it, during render.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q ?? "");
  }
  useEffect(() => {
    if (text.trim() === (q ?? "")) return;
    const t = setTimeout(() => onChange("q", text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, q, onChange]);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <input
        type="search"
        className={`${SELECT} w-full sm:w-64`}
        placeholder="Search name, id, model, tag, note…"
        aria-label="Search runs"
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid="runs-search"
      />
      <Choice
        id="filter-status"
        label="Status"
        value={status}
        options={RUN_STATUSES}
        onChange={(v) => onChange("status", v)}
      />
      <Choice id="filter-env" label="Benchmark" value={env} options={envs} onChange={(v) => onChange("env", v)} />
      {(tags.length > 0 || tag) && (
        <Choice id="filter-tag" label="Tag" value={tag} options={tags} onChange={(v) => onChange("tag", v)} />
      )}
    </div>
  );
}

function Choice({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  // Keep a filter value selectable even when the current answer no longer lists it.
  const all = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-gray-600">
        {label}
      </label>
      <select id={id} className={SELECT} value={value ?? ""} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {all.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}
