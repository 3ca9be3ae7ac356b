/**
 * Pre-flight estimate of model calls and tokens per phase, from the config and the split sizes. It is an
 * upper bound: it assumes no selection-cache hits and no skipped steps. Tokens are approximated from
 * the text sizes (≈ 4 characters per token).
 */
import type { Estimate, EstimatePhase } from "../contracts/api";
import type { RunConfig } from "../contracts/run-config";
import { planRun, type Item, type Splits } from "../engine";
import { priceOf } from "../backends/pricing";
import { priceTableOf } from "../backends/settings";
import { resolveRoles } from "../backends/registry";
import { getBenchmark } from "../envs";

const tok = (chars: number) => Math.ceil(chars / 4);

/** Phases that are target calls (everything else is the optimizer). */
const ROLLOUT_PHASES = new Set([
  "baseline selection",
  "train rollouts",
  "selection evaluations",
  "epoch comparisons",
  "final tests",
]);

function avgItemChars(items: Item[]): number {
  if (items.length === 0) return 0;
  const sample = items.slice(0, 200);
  return sample.reduce((s, it) => s + JSON.stringify({ ...it, sim: undefined }).length, 0) / sample.length;
}

export function estimateRun(config: RunConfig, splits: Splits, skill: string): Estimate {
  const plan = planRun(config, splits);
  const c = config;
  const skillTok = tok(skill.length);
  const itemTok = tok(avgItemChars(splits.train));
  const sel = c.evaluation.sel_env_num || splits.val.length;
  const test = c.evaluation.test_env_num || splits.test.length;
  const perBatch = c.train.batch_size * c.train.accumulation;
  const groups = Math.ceil(perBatch / c.gradient.minibatch_size);
  const analysts = c.gradient.failure_only ? groups : groups + c.train.accumulation;
  const merges = Math.max(0, Math.ceil(groups / c.gradient.merge_batch_size)) + (c.gradient.failure_only ? 0 : 2);
  const steps = plan.totalSteps;
  const later = Math.max(0, c.train.num_epochs - 1);
  const trajTok = c.gradient.reflect_mode === "shallow" ? 80 : itemTok + 400;
  // Multi-turn benchmarks (tool loops, agents, code retries) make up to `perRollout` target calls per item.
  const perRollout = Math.max(1, getBenchmark(c.env.name).targetCallsPerRollout?.(c) ?? 1);
  const rollout = (n: number): [number, number, number] => [
    n * perRollout,
    n * perRollout * (skillTok + itemTok + 250),
    n * perRollout * 250,
  ];
  const rows: Array<[string, [number, number, number]]> = [
    ["baseline selection", rollout(sel)],
    ["train rollouts", rollout(steps * perBatch)],
    [
      "analysts",
      [
        steps * analysts,
        steps * analysts * (skillTok + c.gradient.minibatch_size * trajTok + 600),
        steps * analysts * 900,
      ],
    ],
    ["merges", [steps * merges, steps * merges * (skillTok + 2500), steps * merges * 900]],
    ["ranking / learning rate", [steps, steps * (skillTok + 1200), steps * 150]],
    ["selection evaluations", rollout(steps * sel)],
    [
      "slow update + meta skill",
      [later * 2, later * 2 * (2 * skillTok + c.optimizer.slow_update_samples * (itemTok + 300)), later * 2 * 700],
    ],
    ["epoch comparisons", rollout(later * 2 * c.optimizer.slow_update_samples)],
    ["final tests", rollout(c.evaluation.eval_test ? 3 * test + sel : 0)],
  ];
  if (c.optimizer.skill_update_mode === "rewrite_from_suggestions")
    rows.push(["rewrites", [steps, steps * (skillTok + 1500), steps * (skillTok + 300)]]);
  // The custom benchmark's LLM judge grades every rollout with one optimizer call.
  if (c.env.name === "custom" && (c.env as Record<string, unknown>).metric === "judge") {
    const graded = rows.filter(([phase]) => ROLLOUT_PHASES.has(phase)).reduce((n, [, v]) => n + v[0] / perRollout, 0);
    rows.push(["judge (optimizer grades answers)", [graded, graded * (itemTok + 400), graded * 60]]);
  }
  const phases: EstimatePhase[] = rows
    .filter(([, v]) => v[0] > 0)
    .map(([phase, [calls, p, o]]) => ({ phase, calls, promptTokens: Math.round(p), completionTokens: Math.round(o) }));
  const roles = resolveRoles(c.model);
  const prices = priceTableOf(c.model);
  const optPrice = priceOf(roles.optimizer, c.model.optimizer, prices);
  const tgtPrice = priceOf(roles.target, c.model.target, prices);
  let cost: number | null = 0;
  for (const p of phases) {
    const price = ROLLOUT_PHASES.has(p.phase) ? tgtPrice : optPrice;
    cost =
      price && cost !== null
        ? cost + (p.promptTokens * price.inputPerMTok + p.completionTokens * price.outputPerMTok) / 1e6
        : null;
  }
  return {
    phases,
    totalCalls: phases.reduce((s, p) => s + p.calls, 0),
    totalTokens: phases.reduce((s, p) => s + p.promptTokens + p.completionTokens, 0),
    costUsd: cost,
    splitSizes: { train: splits.train.length, val: splits.val.length, test: splits.test.length },
    notes: [
      `${plan.totalSteps} steps (${c.train.num_epochs} epochs × ${plan.stepsPerEpoch}), ${perBatch} items per step, ${sel} selection items`,
      "upper bound: cached selection scores and skipped steps make the real numbers lower",
      ...(perRollout > 1
        ? [`up to ${perRollout} target calls per item (${c.env.name} is multi-turn); most items need fewer`]
        : []),
      ...(cost === null ? ["cost unknown: no price is known for a model in use"] : []),
    ],
  };
}
