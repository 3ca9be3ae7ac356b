import { describe, expect, it } from "vitest";
import { planTrainEpoch } from "./split-plan";
import type { Item } from "./types";

const items: Item[] = Array.from({ length: 45 }, (_, i) => ({ id: String(i) }));
const ids = (batch: { payload: Item[] }) => batch.payload.map((it) => Number(it.id));
const plan = (epoch: number) =>
  planTrainEpoch({ items, epoch, stepsPerEpoch: 3, accumulation: 2, batchSize: 9, seed: 76511 });

// Expected values computed with the original's `build_epoch` (Python `random.Random`) for the same inputs.
describe("planTrainEpoch", () => {
  it("cuts the epoch-shuffled split into batches seeded seed + 1000·epoch + b + 1", () => {
    const batches = plan(0);
    expect(batches.map((b) => b.seed)).toEqual([76512, 76513, 76514, 76515, 76516, 76517]);
    expect(ids(batches[0]!)).toEqual([11, 39, 36, 23, 29, 3, 6, 21, 32]);
    expect(ids(batches[4]!)).toEqual([0, 20, 41, 40, 34, 30, 14, 8, 16]);
    expect(batches.every((b) => b.batch_size === 9)).toBe(true);
  });

  it("refills an empty micro-batch by reshuffling the epoch-shuffled order, as the original", () => {
    expect(ids(plan(0)[5]!)).toEqual([25, 37, 6, 5, 26, 11, 31, 24, 13]);
    const epoch1 = plan(1);
    expect(epoch1[5]!.seed).toBe(77517);
    expect(ids(epoch1[0]!)).toEqual([21, 11, 7, 1, 32, 9, 43, 20, 18]);
    expect(ids(epoch1[5]!)).toEqual([13, 16, 39, 41, 17, 11, 34, 44, 21]);
  });

  it("leaves batches empty when the split is empty", () => {
    const batches = planTrainEpoch({ items: [], epoch: 0, stepsPerEpoch: 2, accumulation: 2, batchSize: 3, seed: 1 });
    expect(batches.map((b) => b.batch_size)).toEqual([0, 0, 0, 0]);
  });
});
