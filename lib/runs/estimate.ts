/**
 * Pre-flight estimate of model calls and tokens per phase, from the config and the split sizes. Calls are
 * the most each phase can make (estimate-calls.ts follows the engine's rules; outcomes such as steps
 * without edits only lower them). Tokens are approximated from the text sizes (≈ 4 characters per token).
 */
import type { Estimate, EstimatePhase } from "../contracts/api";
import type { RunConfig } from "../contracts/run-config";
import { planRun } from "../engine/run-plan";
import type { Item, Splits } from "../engine/types";
import { priceOf } from "../backends/pricing";
import { priceTableOf } from "../backends/settings";
import { resolveRoles } from "../backends/names";
import { getBenchmark } from "../envs";
import { planCalls } from "./estimate-calls";

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
  const calls = planCalls(c, splits, plan);
  const sel = calls.selectionItems;
  const trajTok = c.gradient.reflect_mode === "shallow" ? 80 : itemTok + 400;
  // Multi-turn benchmarks (tool loops, agents, code retries) make up to `perRollout` target calls per item.
  const perRollout = Math.max(1, getBenchmark(c.env.name).targetCallsPerRollout?.(c) ?? 1);
  const rollout = (n: number): [number, number, number] => [
    n * perRollout,
    n * perRollout * (skillTok + itemTok + 250),
    n * perRollout * 250,
  ];
  const r = calls.rollouts;
  const opt = calls.optimizer;
  const boundarySample = Math.min(c.optimizer.slow_update_samples, splits.train.length);
  const rows: Array<[string, [number, number, number]]> = [
    ["baseline selection", rollout(r.baseline)],
    ["train rollouts", rollout(r.train)],
    [
      "analysts",
      [opt.analysts, opt.analysts * (skillTok + c.gradient.minibatch_size * trajTok + 600), opt.analysts * 900],
    ],
    ["merges", [opt.merges, opt.merges * (skillTok + 2500), opt.merges * 900]],
    ["ranking / learning rate", [opt.ranking, opt.ranking * (skillTok + 1200), opt.ranking * 150]],
    ["selection evaluations", rollout(r.selection + r.slowUpdateGate)],
    [
      "slow update + meta skill",
      [
        opt.epochBoundary,
        opt.epochBoundary * (2 * skillTok + boundarySample * (itemTok + 300)),
        opt.epochBoundary * 700,
      ],
    ],
    ["epoch comparisons", rollout(r.epochComparisons)],
    ["final tests", rollout(r.finalTests)],
  ];
  if (opt.rewrites > 0)
    rows.push(["rewrites", [opt.rewrites, opt.rewrites * (skillTok + 1500), opt.rewrites * (skillTok + 300)]]);
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
      `${plan.totalSteps} steps (${c.train.num_epochs} epochs × ${plan.stepsPerEpoch}), ${calls.itemsPerStep} items per step, ${sel} selection items`,
      "at most: a step without edits is not scored on selection, a skill scored before is not scored again, and merges and ranking run only when there are enough edits, so a run usually makes fewer calls",
      ...(perRollout > 1
        ? [`up to ${perRollout} target calls per item (${c.env.name} is multi-turn); most items need fewer`]
        : []),
      ...(cost === null ? ["cost unknown: no price is known for a model in use"] : []),
    ],
  };
}
