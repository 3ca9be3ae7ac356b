/**
 * The small-split warning (pure): a selection split of n paired items cannot show a difference smaller than
 * its minimum detectable difference as significant (exact sign test, p < 0.05: at least 6 items must change,
 * all one way). Before a run that is said when it exceeds what one step typically gains; during a run, when
 * accepted candidates improved by less than it — those acceptances are within what chance produces.
 */
import type { GateDecisionView } from "../contracts/evidence";
import { minDetectableDiff, minSignificantChanges } from "../engine/gate-evidence";

/** A step gain above which a split is plainly too coarse (one step rarely moves a score by more). */
export const TYPICAL_STEP_GAIN = 0.1;

const pct = (x: number) => `${(x * 100).toFixed(1)} points`;

/** The pre-flight warning for `n` selection items, or null when the split can detect typical gains. */
export function preflightSplitWarning(n: number): string | null {
  const k = minSignificantChanges();
  const mdd = minDetectableDiff(n);
  if (mdd === null)
    return `The selection split has ${n} item(s): no difference can be significant with fewer than ${k} (sign test, p < 0.05). Gate decisions will rest on chance; use more selection items.`;
  if (mdd > TYPICAL_STEP_GAIN)
    return `With ${n} selection items the smallest significant improvement is ${pct(mdd)} (${k} items changing, all one way); a step usually gains less, so most acceptances will not be distinguishable from noise.`;
  return null;
}

/** The run-page warning: accepted step candidates whose paired gain is below what the split can detect. */
export function runSplitWarning(n: number | null, decisions: readonly GateDecisionView[]): string | null {
  const accepted = decisions.filter((d) => d.kind === "step" && d.action.startsWith("accept") && d.evidence);
  if (accepted.length === 0) return null;
  const nPaired = n ?? accepted[0]!.evidence!.nPaired;
  const mdd = minDetectableDiff(nPaired);
  const small = accepted.filter((d) => mdd === null || d.evidence!.meanDiff < mdd);
  if (small.length === 0) return null;
  const limit =
    mdd === null
      ? `${nPaired} paired selection items cannot show any difference as significant`
      : `the smallest difference ${nPaired} paired selection items can show as significant is ${pct(mdd)}`;
  return `${small.length} of ${accepted.length} accepted candidate(s) improved by less than the split can detect: ${limit} (sign test, p < 0.05). Steps ${small.map((d) => d.step).join(", ")}.`;
}
