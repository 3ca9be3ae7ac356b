/**
 * runtime_state.json's text, with each skill's selection outcomes serialised once. The state is written at
 * every commit and holds the per-item outcomes of every skill scored so far (200 items × every gated
 * candidate): re-serialising all of them each step made a 1,000-step run spend O(steps²) in
 * JSON.stringify (about 2 MB of JSON per step by the end). An entry is final once stored — a skill's
 * outcomes are set once under its hash and never changed — so its text is kept for the life of the object.
 */
import type { Outcomes } from "./outcomes";

const TEXT = new WeakMap<Outcomes, string>();

/** Pushes every line after the first in by `pad` (JSON strings never hold a raw newline). */
const indent = (text: string, pad: string): string => text.replace(/\n/g, `\n${pad}`);

function outcomesText(byHash: Record<string, Outcomes>): string {
  const entries = Object.entries(byHash);
  if (entries.length === 0) return "{}";
  const parts = entries.map(([hash, outcomes]) => {
    let text = TEXT.get(outcomes);
    if (text === undefined) {
      text = indent(JSON.stringify(outcomes, null, 2), "    ");
      TEXT.set(outcomes, text);
    }
    return `    ${JSON.stringify(hash)}: ${text}`;
  });
  return `{\n${parts.join(",\n")}\n  }`;
}

/**
 * `JSON.stringify(state, null, 2)` — the same bytes — for a flat state object whose `sel_outcomes` maps
 * skill hashes to outcomes; the outcomes' text is reused from earlier calls.
 */
export function stateJsonText(state: { sel_outcomes?: Record<string, Outcomes> }): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(state)) {
    if (value === undefined) continue; // as JSON.stringify leaves it out
    const text =
      key === "sel_outcomes"
        ? outcomesText(value as Record<string, Outcomes>)
        : indent(JSON.stringify(value, null, 2), "  ");
    parts.push(`  ${JSON.stringify(key)}: ${text}`);
  }
  return parts.length === 0 ? "{}" : `{\n${parts.join(",\n")}\n}`;
}
