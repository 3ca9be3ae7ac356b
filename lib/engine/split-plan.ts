/**
 * Batch planning over already-loaded splits (spec §3.2–§3.3), with the original's seeds so the same
 * config gives the same batches as the Python SkillOpt.
 */
import { pyShuffled } from "./py-random";
import type { Item } from "./types";

export interface TrainBatch {
  phase: "train";
  split: "train";
  /** Also the reflect shuffle seed of this batch (spec §7.2). */
  seed: number;
  batch_size: number;
  payload: Item[];
}

/** One epoch = one shuffled pass over the train split, cut into `stepsPerEpoch × accumulation` batches. */
export function planTrainEpoch(opts: {
  items: readonly Item[];
  epoch: number;
  stepsPerEpoch: number;
  accumulation: number;
  batchSize: number;
  seed: number;
}): TrainBatch[] {
  const { items, epoch, stepsPerEpoch, accumulation, batchSize, seed } = opts;
  const base = seed + epoch * 1000;
  const shuffled = pyShuffled(items, base);
  const total = stepsPerEpoch * accumulation;
  const batches: TrainBatch[] = [];
  let cursor = 0;
  for (let b = 0; b < total; b++) {
    let chunk = shuffled.slice(cursor, cursor + batchSize);
    cursor += chunk.length;
    if (chunk.length === 0 && items.length > 0) {
      // Tiny datasets with accumulation: refill from a reshuffle of this epoch's shuffled order (the
      // original reshuffles the epoch list, not the split in file order).
      chunk = pyShuffled(shuffled, base + b + 1).slice(0, batchSize);
    }
    batches.push({ phase: "train", split: "train", seed: base + b + 1, batch_size: chunk.length, payload: chunk });
  }
  return batches;
}

/** A shuffled prefix of the train split (slow update / meta skill sampling). */
export function buildTrainBatch(items: readonly Item[], batchSize: number, seed: number): Item[] {
  return pyShuffled(items, seed).slice(0, batchSize);
}

/** The first `envNum` items of an eval split in file order (all of them when envNum is 0). */
export function buildEvalBatch(items: readonly Item[], envNum: number): Item[] {
  return envNum > 0 && envNum < items.length ? items.slice(0, envNum) : items.slice();
}

/** Largest-remainder apportionment of `total` by integer weights; ties go to the larger weight. */
export function largestRemainderCounts(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const counts = raw.map((r) => Math.floor(r));
  let remaining = total - counts.reduce((a, b) => a + b, 0);
  const order = weights
    .map((w, i) => ({ i, frac: raw[i]! - counts[i]!, w }))
    // Python's sorted(..., reverse=True) is stable: equal keys keep index order.
    .sort((a, b) => b.frac - a.frac || b.w - a.w || a.i - b.i);
  for (const o of order) {
    if (remaining <= 0) break;
    counts[o.i]! += 1;
    remaining -= 1;
  }
  return counts;
}
