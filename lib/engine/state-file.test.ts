import { describe, expect, it } from "vitest";
import type { Outcomes } from "./outcomes";
import { stateJsonText } from "./state-file";

const outcomes = (n: number, seed: number): Outcomes =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`va-${i}`, i % 7 === seed % 7 ? "timeout" : [i % 2, (i * seed) / 13]]),
  );

const state = (selOutcomes: Record<string, Outcomes> | undefined, extra: Record<string, unknown> = {}) => ({
  last_completed_step: 3,
  current_skill: 'line one\nline "two" \\ é',
  current_score: null,
  scheduler: { current_step: 2 },
  sel_cache: { abc: [0.5, 0.25] },
  sel_outcomes: selOutcomes,
  current_score_hash: "abc",
  token_summary: { rollout: { calls: 2, prompt_tokens: 10 } },
  ...extra,
});

describe("stateJsonText", () => {
  it("is byte for byte JSON.stringify(state, null, 2): empty, absent, integer-like and quoted hashes", () => {
    const cases = [
      state({}),
      state(undefined),
      state({ abc: outcomes(5, 1) }),
      // Integer-like keys come first in JS property order, in JSON.stringify and here alike.
      state({ zz: outcomes(3, 2), "123": outcomes(4, 3), 'we"ird': {}, "7": outcomes(1, 4) }),
      state({ abc: outcomes(2, 5) }, { stop_reason: undefined, nested: { a: [1, { b: [] }], c: {} } }),
    ];
    for (const s of cases) expect(stateJsonText(s)).toBe(JSON.stringify(s, null, 2));
    expect(stateJsonText({})).toBe(JSON.stringify({}, null, 2));
  });

  it("reuses an entry's text across commits and still follows the map it is given", () => {
    const byHash: Record<string, Outcomes> = { a: outcomes(4, 1) };
    expect(stateJsonText(state(byHash))).toBe(JSON.stringify(state(byHash), null, 2));
    byHash.b = outcomes(6, 2);
    const s = state(byHash, { last_completed_step: 4 });
    expect(stateJsonText(s)).toBe(JSON.stringify(s, null, 2));
    // A hash given other outcomes (a state loaded afresh) is written with the new object's text.
    byHash.a = outcomes(4, 3);
    expect(stateJsonText(state(byHash))).toBe(JSON.stringify(state(byHash), null, 2));
    expect(JSON.parse(stateJsonText(state(byHash)))).toEqual(JSON.parse(JSON.stringify(state(byHash))));
  });
});
