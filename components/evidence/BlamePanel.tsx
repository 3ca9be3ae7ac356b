"use client";
import type { ReactNode } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { Card } from "../ui/Card";
import { BlameView } from "./BlameView";
import { useRunBlame } from "./use-evidence";

/**
 * The blame of the run's best skill. Until the baseline has been scored there is no best skill: that is a
 * plain, muted notice (not a failed request), and the blame is asked for only once the run has one.
 */
export function BlamePanel({
  run,
  active,
  failed,
}: {
  run: Pick<RunDetail, "id" | "bestSkillHash">;
  active: boolean;
  failed: (what: string, e: Error | null) => ReactNode;
}) {
  const hasBest = run.bestSkillHash !== null;
  const blame = useRunBlame(run.id, active, hasBest);
  if (!hasBest)
    return (
      <Card title="Best skill — blame" testId="blame-view">
        <p className="text-gray-500" data-testid="blame-no-best">
          No best skill yet: it exists once the baseline has been scored, and its lines are traced here then.
        </p>
      </Card>
    );
  if (blame.data) return <BlameView lines={blame.data} />;
  return failed("the blame", blame.error) ?? <p className="text-gray-500">Loading blame…</p>;
}
