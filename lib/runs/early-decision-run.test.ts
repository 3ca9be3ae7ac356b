import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { simRunPreset as simRun } from "./sim-harness";

/** Selection items scored for step candidates (rollouts of the gate), over the whole run. */
const candidateItems = (events: EngineEvent[]) =>
  events.reduce((n, e) => n + (e.type === "candidateScored" && !e.cached ? e.nItems : 0), 0);

describe("evaluation.early_decision on the sample presets", () => {
  for (const preset of ["searchqa", "livemath"]) {
    for (const share of [0.2, 1]) {
      it(`${preset}, max_error_share ${share}: decisions match the full evaluation up to the first early one, fewer items scored`, async () => {
        const base = [`evaluation.max_error_share=${share}`];
        const off = await simRun(`configs/${preset}/sample.yaml`, base);
        const on = await simRun(`configs/${preset}/sample.yaml`, [...base, "evaluation.early_decision=true"]);
        // Every decision up to and including the first early one is the full evaluation's decision. After
        // it, the epoch's digest shows the optimizer a bound instead of the rejected candidate's full score,
        // so later proposals (not the gate) may differ.
        const early = on.history.filter((h) => h.early_decision);
        const upTo = early.length > 0 ? on.history.indexOf(early[0]!) + 1 : on.history.length;
        expect(on.history.slice(0, upTo).map((h) => h.action)).toEqual(off.history.slice(0, upTo).map((h) => h.action));
        if (early.length === 0) expect(on.best).toBe(off.best);
        for (const h of early.slice(0, 1)) {
          expect(h.action).toBe("reject");
          expect(h.early_decision).toMatchObject({ decision: "reject", exact: true });
          const e = h.early_decision as { scored: number; of: number; candidate_hard_upper_bound: number };
          expect(e.scored).toBeLessThan(e.of);
          // The recorded bound is at least what the full evaluation measured.
          const full = off.history.find((o) => o.step === h.step)!;
          expect(e.candidate_hard_upper_bound).toBeGreaterThanOrEqual((full.selection_hard as number) - 1e-9);
        }
        if (share === 1) {
          expect(early.length).toBeGreaterThan(0);
          expect(candidateItems(on.events)).toBeLessThan(candidateItems(off.events));
        }
      }, 120_000);
    }
  }
});
