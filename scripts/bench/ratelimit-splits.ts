/** The SearchQA-shaped splits of `bench:ratelimit`, built the same way in the parent (for the mock's knowledge) and in each worker. */
import type { Splits } from "../../lib/engine";
import { searchQaSample } from "../../lib/envs";
import { scaled } from "./common";

export function benchSplits(n: number): Splits {
  const sample = searchQaSample();
  const pool = [...sample.train, ...sample.val, ...sample.test];
  return { train: scaled(n, "tr", pool), val: scaled(n / 2, "va", pool), test: scaled(n / 2, "te", pool) };
}
