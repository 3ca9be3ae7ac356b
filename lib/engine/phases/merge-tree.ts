/**
 * The hierarchical merge as a dataflow (spec §7.5; issue 14): level k merges consecutive chunks of
 * `size` outputs of level k−1, and a chunk's merge starts as soon as its own inputs are done — not when
 * its whole level is — with at most `workers` merge calls in flight across all levels. Every node is named
 * by (level, index) and reads only its own inputs, so the results do not depend on the order calls finish.
 *
 * Lineage (merge provenance): each patch travels with, per item, the indices of the step's proposed edits
 * it came from. A merge call's output items come from every input of that call; a concatenation keeps
 * each item's own lineage.
 */
import type { Patch } from "../types";

export interface TrackedPatch {
  patch: Patch;
  /** Per item of the patch's payload: sorted indices of the proposed edits it combines. */
  from: number[][];
}

/** The union of the lineage of every item of `patches`, sorted. */
export function unionFrom(patches: readonly TrackedPatch[]): number[] {
  return [...new Set(patches.flatMap((p) => p.from.flat()))].sort((a, b) => a - b);
}

/** A FIFO counting semaphore: `run` waits for a free slot, so no more than `n` tasks run at once. */
function slots(n: number) {
  let free = Math.max(1, n);
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

export type MergeNode = (chunk: TrackedPatch[], level: number, index: number) => Promise<TrackedPatch>;

/**
 * Reduces `leaves` to one patch through levels of `size`-chunks. A chunk of one passes through without a
 * call. A failed merge rejects the whole tree once every started node has settled.
 */
export async function mergeTree(
  leaves: readonly TrackedPatch[],
  size: number,
  workers: number,
  merge: MergeNode,
): Promise<TrackedPatch> {
  if (leaves.length === 0) throw new Error("mergeTree needs at least one patch");
  const run = slots(workers);
  const started: Promise<TrackedPatch>[] = [];
  let level: Promise<TrackedPatch>[] = leaves.map((l) => Promise.resolve(l));
  for (let lvl = 1; level.length > 1; lvl++) {
    const next: Promise<TrackedPatch>[] = [];
    for (let i = 0, ci = 0; i < level.length; i += size, ci++) {
      const inputs = level.slice(i, i + size);
      const [L, C] = [lvl, ci];
      const node =
        inputs.length === 1 ? inputs[0]! : Promise.all(inputs).then((chunk) => run(() => merge(chunk, L, C)));
      next.push(node);
      started.push(node);
    }
    level = next;
  }
  // Every node is observed, so a failure deep in the tree surfaces once and none is left unhandled.
  const settled = await Promise.allSettled(started);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return level[0]!;
}
