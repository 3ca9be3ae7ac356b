/**
 * The first half of a training step (spec §7.1–§7.3): roll out every accumulation batch with the current
 * skill and let the analysts read it, keeping which analyst minibatch proposed which edits.
 */
import type { ProposalSource } from "../contracts/events";
import { stepDir, type RunContext } from "./context";
import { answeredScore, statusCounts, unansweredOf } from "./outcomes";
import { patchItems } from "./phases/aggregate";
import { normalisePatches, reflect } from "./phases/reflect";
import { rolloutItems } from "./phases/rollout";
import { metaBlock } from "./prompts/epoch";
import { round6 } from "./scoring";
import type { TrainState } from "./state";
import type { TrainBatch } from "./split-plan";
import { formatStepBuffer, type StepBufferEntry } from "./step-buffer";
import type { AnalystResult, Patch, StepRecord, Trajectory } from "./types";

/** What the rollout and reflection of a step read (a part of the step's input). */
export interface ReflectStepInput {
  step: number;
  stepInEpoch: number;
  batches: TrainBatch[];
  buffer: StepBufferEntry[];
  metaCtx: string;
}

export interface Collected {
  results: Trajectory[];
  raw: AnalystResult[];
  failure: Patch[];
  success: Patch[];
  /** Which analyst proposed the edits of `failure`, then of `success`, in that order. */
  sources: ProposalSource[];
  nInvalid: number;
}

export async function rolloutAndReflect(
  ctx: RunContext,
  st: TrainState,
  input: ReflectStepInput,
  rec: StepRecord,
): Promise<Collected> {
  const acc = ctx.cfg.train.accumulation;
  const sd = stepDir(input.step);
  const out: Collected = { results: [], raw: [], failure: [], success: [], sources: [], nInvalid: 0 };
  const successSources: ProposalSource[] = [];
  const perBatch: Record<string, unknown>[] = [];
  const answeredPerBatch: number[] = [];
  let rolloutMs = 0;
  let reflectMs = 0;
  for (let a = 0; a < acc; a++) {
    const batch = input.batches[input.stepInEpoch * acc + a]!;
    const dir = acc > 1 ? `${sd}/batch_${a}` : sd;
    const items = ctx.env.prepareBatch ? ctx.env.prepareBatch(batch.payload, batch.seed) : batch.payload;
    let t = ctx.clock.now();
    const results = await rolloutItems(ctx, {
      dir: `${dir}/rollout`,
      items,
      skill: st.currentSkill,
      phase: "train",
      seed: batch.seed,
      useEvalFeedback: true,
    });
    rolloutMs += ctx.clock.now() - t;
    ctx.checkAbort();
    t = ctx.clock.now();
    const r = await reflect(ctx, {
      dir,
      results,
      skill: st.currentSkill,
      seed: batch.seed,
      stepBuffer: formatStepBuffer(input.buffer),
      metaBlock: metaBlock(input.metaCtx),
    });
    reflectMs += ctx.clock.now() - t;
    const { failure, success } = normalisePatches(r.raw, ctx.plan.updateMode);
    r.raw.forEach((one, i) => {
      const own = normalisePatches([one], ctx.plan.updateMode);
      const src = r.sources[i]!;
      for (const p of own.failure)
        out.sources.push({ batch: a, ...src, nEdits: patchItems(p, ctx.plan.updateMode).length });
      for (const p of own.success)
        successSources.push({ batch: a, ...src, nEdits: patchItems(p, ctx.plan.updateMode).length });
    });
    const score = answeredScore(results);
    answeredPerBatch.push(results.length - unansweredOf(statusCounts(results)));
    perBatch.push({
      batch_idx: a,
      batch_seed: batch.seed,
      n_envs: results.length,
      hard: score.hard,
      soft: score.soft,
      n_failure_patches: failure.length,
      n_success_patches: success.length,
    });
    out.results.push(...results);
    out.raw.push(...r.raw);
    out.failure.push(...failure);
    out.success.push(...success);
    out.nInvalid += r.nInvalid;
  }
  out.sources.push(...successSources);
  const n = perBatch.reduce((s, b) => s + (b.n_envs as number), 0);
  // Each batch's mean is over its answered items, so it weighs by those; unanswered items count apart.
  const answered = answeredPerBatch.reduce((s, k) => s + k, 0);
  const weighted = (k: "hard" | "soft") =>
    answered === 0
      ? 0
      : round6(perBatch.reduce((s, b, i) => s + (b[k] as number) * answeredPerBatch[i]!, 0) / answered);
  const counts = statusCounts(out.results);
  Object.assign(rec, {
    rollout_hard: weighted("hard"),
    rollout_soft: weighted("soft"),
    rollout_n: n,
    n_errors: counts.nErrors,
    n_timeouts: counts.nTimeouts,
    n_truncated: counts.nTruncated,
    accumulation_batches: perBatch,
    n_patches: out.raw.length,
    n_failure_patches: out.failure.length,
    n_success_patches: out.success.length,
    n_invalid_analyst: out.nInvalid,
  });
  (rec.timing as Record<string, number>).rollout_s = secs(rolloutMs);
  (rec.timing as Record<string, number>).reflect_s = secs(reflectMs);
  return out;
}

export const secs = (ms: number): number => Math.round(ms / 100) / 10;
