/**
 * A/A noise floor (`evaluation.noise_floor_repeats: K`): at the start of an epoch the current skill is
 * re-scored K times on the selection split, each repeat with its own rollout seed, so the spread of its
 * gate score shows how much the target moves with nothing changed. A gate improvement inside that band is
 * indistinguishable from noise. Each repeat's rows are stored under their own folder, so a resumed run
 * never pays for a repeat twice; a deterministic target (the simulated one) gives a band of width 0.
 */
import { pad, type RunContext } from "./context";
import { answeredScore, isAnswered } from "./outcomes";
import { gateScoreOf } from "./phases/evaluate";
import { rolloutItems } from "./phases/rollout";
import { round6 } from "./scoring";
import type { Item } from "./types";

export interface NoiseFloor {
  scores: number[];
  mean: number;
  sd: number;
  low: number;
  high: number;
}

/** Mean, sample standard deviation and range of the repeat scores (pure). */
export function summariseNoise(scores: readonly number[]): NoiseFloor {
  if (scores.length === 0) throw new RangeError("a noise floor needs at least one repeat score");
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const ss = scores.reduce((a, b) => a + (b - mean) ** 2, 0);
  const sd = scores.length > 1 ? Math.sqrt(ss / (scores.length - 1)) : 0;
  return {
    scores: [...scores],
    mean: round6(mean),
    sd: round6(sd),
    low: Math.min(...scores),
    high: Math.max(...scores),
  };
}

/** The rollout seed of repeat `k` of `epoch`: distinct from the selection evaluations' seed (the run seed). */
export const noiseSeed = (runSeed: number, epoch: number, k: number): number => runSeed * 1_000 + epoch * 37 + k + 1;

export const noiseDir = (epoch: number, k: number): string => `noise_floor/epoch_${pad(epoch, 2)}/repeat_${pad(k, 2)}`;

/** Re-scores `skill` K times and emits `noiseFloorMeasured`; does nothing when K is 0. */
export async function measureNoiseFloor(
  ctx: RunContext,
  opts: { epoch: number; skill: string; items: Item[] },
): Promise<NoiseFloor | null> {
  const repeats = ctx.cfg.evaluation.noise_floor_repeats;
  if (repeats <= 0 || opts.items.length === 0) return null;
  const scores: number[] = [];
  let answered = 0;
  for (let k = 0; k < repeats; k++) {
    ctx.checkAbort();
    const rows = await rolloutItems(ctx, {
      dir: noiseDir(opts.epoch, k),
      items: opts.items,
      skill: opts.skill,
      phase: "selection",
      seed: noiseSeed(ctx.cfg.train.seed, opts.epoch, k),
    });
    scores.push(gateScoreOf(ctx, answeredScore(rows), opts.skill));
    answered = rows.filter(isAnswered).length;
  }
  const nf = summariseNoise(scores);
  await ctx.emit({ type: "noiseFloorMeasured", epoch: opts.epoch, ...nf, nItems: answered });
  return nf;
}
