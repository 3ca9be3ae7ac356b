"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { CompareResponse } from "@/lib/contracts/api";
import { api } from "../api-client";
import { SkillDiff } from "../diff/SkillDiff";
import { queryKeys } from "../query-keys";
import { Card } from "../ui/Card";

const SELECT = "max-w-48 rounded-md border border-gray-300 bg-white px-2 py-1 text-sm";

function useBestSkill(id: string) {
  return useQuery({ queryKey: queryKeys.bestSkill(id), queryFn: () => api.getBestSkill(id) });
}

/** The best skills of two of the compared runs, side by side (the first two until others are picked). */
export function BestSkillDiff({ runs }: { runs: CompareResponse["runs"] }) {
  const [a, setA] = useState(runs[0]!.id);
  const [b, setB] = useState(runs[1]!.id);
  const left = useBestSkill(a);
  const right = useBestSkill(b);
  const label = (id: string) => {
    const r = runs.find((x) => x.id === id);
    return r?.name || id.slice(0, 8);
  };
  const pick = (value: string, set: (id: string) => void, aria: string) => (
    <select className={SELECT} value={value} onChange={(e) => set(e.target.value)} aria-label={aria}>
      {runs.map((r) => (
        <option key={r.id} value={r.id}>
          {r.name || r.id.slice(0, 8)}
        </option>
      ))}
    </select>
  );
  const error = left.error ?? right.error;
  return (
    <Card
      title="Best skills"
      actions={
        <span className="flex flex-wrap items-center gap-2 text-xs">
          {pick(a, setA, "Left run")} → {pick(b, setB, "Right run")}
        </span>
      }
    >
      <div data-testid="best-skill-diff">
        {error ? (
          <p className="text-sm text-gray-600">No best skill to show yet: {error.message}</p>
        ) : left.data === undefined || right.data === undefined ? (
          <p className="text-sm text-gray-500">Loading the best skills…</p>
        ) : a === b ? (
          <p className="text-sm text-gray-600">Pick two different runs.</p>
        ) : (
          <SkillDiff oldText={left.data} newText={right.data} oldLabel={label(a)} newLabel={label(b)} />
        )}
      </div>
    </Card>
  );
}
