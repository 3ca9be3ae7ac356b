import { Badge, type Tone } from "@/components/ui/Badge";

const TONE: Record<string, Tone> = {
  queued: "gray",
  running: "blue",
  staged: "violet",
  adopted: "green",
  discarded: "gray",
  failed: "red",
  dry_run: "amber",
  no_tasks: "gray",
  handoff_pending: "orange",
  interrupted: "red",
};

/** A Sleep night's status; a pulsing dot while it runs. */
export function NightStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={TONE[status] ?? "gray"} testId="night-status">
      {status === "running" && <span className="size-1.5 animate-pulse rounded-full bg-blue-500" aria-hidden />}
      {status.replace("_", " ")}
    </Badge>
  );
}
