import { Badge, type Tone } from "./Badge";

/** Gate actions and skill-version statuses share one colour code. */
const ACTION_TONE: Record<string, Tone> = {
  accept_new_best: "emerald",
  accepted_new_best: "emerald",
  accept: "green",
  accepted: "green",
  force_accept: "amber",
  force_accepted: "amber",
  reject: "red",
  rejected: "red",
  skip_no_patches: "gray",
  skip_no_rewrite: "gray",
  skip_errors: "amber",
  skipped_errors: "amber",
  skipped: "gray",
};

const LABEL: Record<string, string> = {
  accept_new_best: "new best",
  accepted_new_best: "new best",
  skip_no_patches: "skip · no patches",
  skip_no_rewrite: "skip · no rewrite",
  skip_errors: "skip · errors",
  skipped_errors: "skipped · errors",
  force_accept: "force accept",
  force_accepted: "force accepted",
};

export function ActionBadge({ action }: { action: string | null | undefined }) {
  if (!action) return <span className="text-gray-400">—</span>;
  return (
    <Badge tone={ACTION_TONE[action] ?? "violet"} title={action}>
      {LABEL[action] ?? action}
    </Badge>
  );
}
