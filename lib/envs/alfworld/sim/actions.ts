/**
 * The text side of the built-in household simulator: what a reset or step returns, the facts a failure
 * diagnosis reads, and how typed actions are normalised and listed (our own wording in ALFWorld's style).
 */
import type { Treatment } from "./world";

/** What one reset or step returns (the same shape the ALFWorld bridge speaks). */
export interface StepResult {
  observation: string;
  admissible: string[];
  won: boolean;
  done: boolean;
}

/** Facts about the episode a failure diagnosis reads. */
export interface EpisodeEvents {
  visits: Map<string, number>;
  closedVisited: Set<string>;
  opened: number;
  seenKinds: Set<string>;
  untreatedPut?: { object: string; recep: string; treatment: Treatment };
  lampEmptyHanded?: string;
  takeWhileHolding?: { object: string; holding: string };
  inadmissible: string[];
}

export const NOTHING_HAPPENS = "Nothing happens.";

export function listing(names: readonly string[]): string {
  if (names.length === 0) return "nothing";
  const items = names.map((n) => `a ${n}`);
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]!}`;
}

/** Lower case, single spaces, no trailing period or quotes: how typed actions are compared. */
export function normaliseAction(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/["'`]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!]+$/, "")
    .trim();
}

/** Accepts `put X in Y`, `put X on Y` and `move X to Y` for the canonical `put X in/on Y`. */
export function canonicalAction(action: string): string {
  const put = /^(?:put|place|move) (.+?) (?:in\/on|in|on|into|onto|to) (.+)$/.exec(action);
  return put ? `put ${put[1]} in/on ${put[2]}` : action;
}
