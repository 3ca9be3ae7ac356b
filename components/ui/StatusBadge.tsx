import type { RunStatus } from "@/lib/contracts/run-status";
import { Badge, type Tone } from "./Badge";

const STATUS_TONE: Record<string, Tone> = {
  queued: "gray",
  running: "blue",
  cancelling: "amber",
  cancelled: "gray",
  succeeded: "green",
  failed: "red",
  interrupted: "orange",
  budget_exhausted: "amber",
  awaiting_review: "amber",
} satisfies Record<RunStatus, Tone>;

/** The run's lifecycle status; a pulsing dot while it is running. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const tone = STATUS_TONE[status] ?? "gray";
  return (
    <Badge tone={tone} testId={testId}>
      {status === "running" && <span className="size-1.5 animate-pulse rounded-full bg-blue-500" aria-hidden />}
      {status}
    </Badge>
  );
}
