/**
 * The run's best skill as every surface names it: where the skill came from (its origin) and where its
 * score was measured. One sentence for the run header, the banner, the compare card and the CLI, e.g.
 * "Best skill: slow update after epoch 3, selection 1.000 (final selection check)".
 */

/** How the best score was measured: the baseline, a step's gate, a gated slow update, or the end-of-run check. */
export type BestMeasuredBy = "baseline" | "step_gate" | "slow_update_gate" | "final_check";

export type SkillOrigin =
  | { kind: "seed" }
  | { kind: "step"; step: number }
  | { kind: "slow_update"; epoch: number }
  | { kind: "other"; label: string };

/** The engine's origin labels: `initial_skill`, `step_0009`, `slow_update_epoch_03`, `slow_update_placeholder_epoch_01`. */
export function parseOrigin(origin: string): SkillOrigin {
  if (origin === "initial_skill") return { kind: "seed" };
  const step = /^step_(\d+)$/.exec(origin);
  if (step) return { kind: "step", step: Number(step[1]) };
  const slow = /^slow_update_(?:placeholder_)?epoch_(\d+)$/.exec(origin);
  if (slow) return { kind: "slow_update", epoch: Number(slow[1]) };
  return { kind: "other", label: origin.replaceAll("_", " ") };
}

/** "the seed skill", "step 9", "slow update after epoch 3". */
export function originPhrase(origin: string): string {
  const o = parseOrigin(origin);
  switch (o.kind) {
    case "seed":
      return "the seed skill";
    case "step":
      return `step ${o.step}`;
    case "slow_update":
      return `slow update after epoch ${o.epoch}`;
    case "other":
      return o.label;
  }
}

/** What a stored origin measured by `measuredBy` is called where it was measured. */
export const MEASURED_BY_LABEL: Record<BestMeasuredBy, string> = {
  baseline: "baseline",
  step_gate: "step gate",
  slow_update_gate: "slow-update gate",
  final_check: "final selection check",
};

export interface BestSkillView {
  score: number | null;
  /** The gate metric the score is in: hard, soft or mixed. */
  metric: string;
  origin: string | null;
  measuredBy: BestMeasuredBy | null;
}

const fmt = (v: number | null) => (v === null ? "—" : v.toFixed(3));

/** The one sentence every surface uses for the best skill. */
export function bestSentence(b: BestSkillView): string {
  if (b.origin === null)
    return b.score === null ? "Best skill: not measured yet" : `Best skill: selection ${fmt(b.score)}`;
  const metric = b.metric === "hard" ? "selection" : `selection (${b.metric})`;
  const where = b.measuredBy === "final_check" ? ` (${MEASURED_BY_LABEL.final_check})` : "";
  return `Best skill: ${originPhrase(b.origin)}, ${metric} ${fmt(b.score)}${where}`;
}

/** A short label for tables and chips: "slow update after epoch 3 · final selection check". */
export function bestOriginLabel(b: { bestOrigin: string | null; bestMeasuredBy: BestMeasuredBy | null }): string {
  if (b.bestOrigin === null) return "—";
  return b.bestMeasuredBy === "final_check"
    ? `${originPhrase(b.bestOrigin)} · ${MEASURED_BY_LABEL.final_check}`
    : originPhrase(b.bestOrigin);
}
