"use client";
import { useState } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { Button } from "../ui/Button";
import { useRunAction } from "./use-run";

const INPUT = "w-28 rounded border border-gray-300 bg-white px-2 py-1 text-sm";

/** Raise a paused run's budget and resume it; empty = no limit. */
export function BudgetResume({ run }: { run: RunDetail }) {
  const action = useRunAction(run.id);
  const [usd, setUsd] = useState(run.config.budget.max_usd === null ? "" : String(run.config.budget.max_usd));
  const [calls, setCalls] = useState(run.config.budget.max_calls === null ? "" : String(run.config.budget.max_calls));
  const parse = (v: string) => (v.trim() === "" ? null : Number(v));
  const budget = { max_usd: parse(usd), max_calls: parse(calls) };
  const invalid = [budget.max_usd, budget.max_calls].some((v) => v !== null && (!Number.isFinite(v) || v < 0));
  return (
    <form
      className="mt-2 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!invalid)
          action.mutate({
            action: "resume",
            budget: { ...budget, max_calls: budget.max_calls === null ? null : Math.floor(budget.max_calls) },
          });
      }}
    >
      <label className="text-xs">
        <span className="block text-gray-700">Max USD</span>
        <input
          className={INPUT}
          inputMode="decimal"
          value={usd}
          onChange={(e) => setUsd(e.target.value)}
          placeholder="no limit"
          data-testid="budget-max-usd"
        />
      </label>
      <label className="text-xs">
        <span className="block text-gray-700">Max calls</span>
        <input
          className={INPUT}
          inputMode="numeric"
          value={calls}
          onChange={(e) => setCalls(e.target.value)}
          placeholder="no limit"
          data-testid="budget-max-calls"
        />
      </label>
      <Button variant="primary" type="submit" disabled={invalid || action.isPending} data-testid="resume-with-budget">
        {action.isPending ? "Resuming…" : "Raise budget and resume"}
      </Button>
      {invalid && <span className="text-xs text-red-700">Budgets are numbers ≥ 0, or empty for no limit.</span>}
      {action.error && (
        <span role="alert" className="text-xs text-red-700">
          {action.error.message}
        </span>
      )}
    </form>
  );
}
