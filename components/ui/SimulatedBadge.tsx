import { Badge } from "./Badge";

export const SIMULATED_LABEL = "Simulated model — scores are synthetic";

/** Shown wherever a run of the simulated backend appears. */
export function SimulatedBadge({ compact = false }: { compact?: boolean }) {
  return (
    <Badge tone="amber" title={SIMULATED_LABEL}>
      {compact ? "Simulated" : SIMULATED_LABEL}
    </Badge>
  );
}
