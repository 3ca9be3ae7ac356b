/**
 * Per-batch choice shuffling: each item's options are reordered with a CPython-compatible RNG seeded by
 * the first 16 hex digits of sha256("<batch seed>:<item id>"), then relabelled A, B, C… so that the
 * label position carries no signal across batches, yet every batch is reproducible.
 */
import { createHash } from "node:crypto";
import { PyRandom } from "../../engine/py-random";
import type { Item } from "../../engine/types";
import type { Choice } from "./normalise";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The RNG seed for one item in one batch. */
export function choiceShuffleSeed(seed: number, itemId: string): bigint {
  const hex = createHash("sha256").update(`${seed}:${itemId}`, "utf8").digest("hex");
  return BigInt(`0x${hex.slice(0, 16)}`);
}

/** A copy of `item` with shuffled, relabelled choices and the correct label remapped. */
export function shuffleItemChoices(item: Item, seed: number): Item {
  const choices = item.choices as Choice[] | undefined;
  const correct = item.correct_choice as Choice | undefined;
  if (!Array.isArray(choices) || choices.length < 2 || !correct) return item;
  const order = choices.slice();
  new PyRandom(choiceShuffleSeed(seed, item.id)).shuffle(order);
  const relabelled = order.map((c, i) => ({ label: LETTERS[i] ?? String(i + 1), text: c.text }));
  const at = order.findIndex((c) => c.label === correct.label);
  const newCorrect = at >= 0 ? (relabelled[at] as Choice) : { ...correct };
  return { ...item, choices: relabelled, correct_choice: { ...newCorrect } };
}
