"use client";
import { useState } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { RESUMABLE_STATUSES } from "@/lib/contracts/run-recovery";
import { ARTIFACT } from "@/lib/contracts/artifacts";
import { exportUrl } from "../api-client";
import { Button, buttonClass } from "../ui/Button";
import { useRunAction } from "./use-run";

const CANCELLABLE = ["queued", "running"];
// A budget-exhausted run resumes from its notice, where the budget can be raised first.
const RESUMABLE: readonly string[] = RESUMABLE_STATUSES.filter((s) => s !== "budget_exhausted");

/** Cancel / resume and the two downloads. Each button does exactly what it says; errors show inline. */
export function RunActions({ run }: { run: RunDetail }) {
  const action = useRunAction(run.id);
  const [confirming, setConfirming] = useState(false);
  // The run's best and its export row are written in one transaction: a known best is a working download.
  const hasBest = run.bestSkillHash !== null;
  const noBest = "Available once the seed skill has been scored";
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap items-center justify-end gap-2">
        {CANCELLABLE.includes(run.status) &&
          (confirming ? (
            <span className="flex items-center gap-2 text-xs text-gray-700" role="group" aria-label="Confirm cancel">
              Stop this run at its next safe point? You can resume it later.
              <Button
                variant="danger"
                data-testid="confirm-cancel"
                disabled={action.isPending}
                onClick={() => action.mutate("cancel", { onSettled: () => setConfirming(false) })}
              >
                {action.isPending && action.variables === "cancel" ? "Cancelling…" : "Yes, cancel"}
              </Button>
              <Button variant="secondary" data-testid="keep-running" onClick={() => setConfirming(false)}>
                Keep running
              </Button>
            </span>
          ) : (
            <Button
              variant="danger"
              data-testid="cancel-run"
              disabled={action.isPending}
              onClick={() => setConfirming(true)}
            >
              Cancel run
            </Button>
          ))}
        {RESUMABLE.includes(run.status) && (
          <Button
            variant="primary"
            data-testid="resume-run"
            disabled={action.isPending}
            onClick={() => action.mutate("resume")}
          >
            {action.isPending && action.variables === "resume" ? "Resuming…" : "Resume run"}
          </Button>
        )}
        {hasBest ? (
          <a
            href={exportUrl(run.id, "skill")}
            download
            className={buttonClass("secondary")}
            data-testid="download-best-skill"
          >
            Download {ARTIFACT.bestSkill}
          </a>
        ) : (
          <Button disabled title={noBest} data-testid="download-best-skill">
            Download {ARTIFACT.bestSkill}
          </Button>
        )}
        {hasBest ? (
          <a
            href={exportUrl(run.id, "bundle")}
            download
            className={buttonClass("secondary")}
            data-testid="download-bundle"
          >
            Download bundle
          </a>
        ) : (
          <Button disabled title={noBest} data-testid="download-bundle">
            Download bundle
          </Button>
        )}
      </div>
      {action.error && (
        <p role="alert" className="text-xs text-red-700">
          Could not {typeof action.variables === "string" ? action.variables : action.variables?.action} the run:{" "}
          {action.error.message}
        </p>
      )}
    </div>
  );
}
