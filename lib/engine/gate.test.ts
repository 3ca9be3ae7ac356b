import { describe, expect, it } from "vitest";
import {
  DEFAULT_LEADING_WORDS,
  decideGate,
  gateScore,
  parseLeadingWords,
  semanticDensity,
  type GateDecision,
} from "./gate";
import { PyRandom } from "./py-random";

const base = { candidateScore: 0, currentScore: 0.5, bestScore: 0.5, bestStep: 0, step: 7, useGate: true };

describe("gateScore", () => {
  it("projects hard, soft and mixed", () => {
    expect(gateScore({ hard: 0.8, soft: 0.4, metric: "hard", mixedWeight: 0.25 })).toBe(0.8);
    expect(gateScore({ hard: 0.8, soft: 0.4, metric: "soft", mixedWeight: 0.25 })).toBe(0.4);
    expect(gateScore({ hard: 0.8, soft: 0.4, metric: "mixed", mixedWeight: 0.25 })).toBeCloseTo(0.7, 12);
    expect(gateScore({ hard: 1.0, soft: 0.6, metric: "mixed", mixedWeight: 0.5 })).toBeCloseTo(0.8, 12);
  });

  it("clamps the mixed weight to [0, 1]", () => {
    expect(gateScore({ hard: 0.8, soft: 0.4, metric: "mixed", mixedWeight: 5 })).toBe(0.4);
    expect(gateScore({ hard: 0.8, soft: 0.4, metric: "mixed", mixedWeight: -2 })).toBe(0.8);
  });

  it("ignores soft under the hard metric", () => {
    expect(gateScore({ hard: 0.5, soft: 1, metric: "hard", mixedWeight: 0.5 })).toBe(0.5);
    expect(gateScore({ hard: 0.5, soft: 0, metric: "hard", mixedWeight: 0.5 })).toBe(0.5);
  });

  it("throws on an unknown metric", () => {
    expect(() => gateScore({ hard: 1, soft: 1, metric: "f1", mixedWeight: 0 })).toThrow(/"f1".*hard, soft, mixed/);
  });

  it("adds the density bonus only when enabled", () => {
    const skill = "Always check the inputs and never mix up proxy values.";
    const opts = { hard: 0.8, soft: 0, metric: "hard", mixedWeight: 0, skill, densityWeight: 0.1 };
    expect(gateScore({ ...opts, useDensity: true })).toBeCloseTo(0.82, 12);
    expect(gateScore(opts)).toBe(0.8);
    // Default weight 0.05 applies when none is given.
    expect(gateScore({ ...opts, densityWeight: undefined, useDensity: true })).toBeCloseTo(0.81, 12);
  });
});

describe("semanticDensity", () => {
  it("counts default leading words case-insensitively", () => {
    expect(semanticDensity("Always check the inputs and never mix up proxy values.")).toBeCloseTo(0.2, 12);
  });

  it("uses custom words when given", () => {
    expect(semanticDensity("Check the inputs and resolve every conflict first.", ["check", "resolve"])).toBe(0.25);
    // RESOLVE is a default word too, but ALWAYS is not in the custom list.
    expect(semanticDensity("Always resolve it", ["Resolve"])).toBeCloseTo(1 / 3, 12);
  });

  it("excludes the slow-update and appendix blocks", () => {
    const doc = [
      "Always check results.",
      "",
      "<!-- SLOW_UPDATE_START -->",
      "MUST NEVER ALWAYS",
      "<!-- SLOW_UPDATE_END -->",
      "",
      "<!-- APPENDIX_START -->",
      "## Execution Notes Appendix",
      "- ALWAYS VERIFY",
      "<!-- APPENDIX_END -->",
      "",
    ].join("\n");
    expect(semanticDensity(doc)).toBeCloseTo(1 / 3, 12);
  });

  it("removes an orphan START alone but keeps a stray END's tokens", () => {
    expect(semanticDensity("Always <!-- SLOW_UPDATE_START --> check")).toBe(0.5);
    expect(semanticDensity("Always check <!-- APPENDIX_END -->")).toBe(0.25);
  });

  it("splits tokens on underscores and punctuation", () => {
    expect(semanticDensity("must_verify, ONLY!")).toBe(1);
  });

  it("is 0 for blank text or text without tokens", () => {
    expect(semanticDensity("")).toBe(0);
    expect(semanticDensity("  \n\t")).toBe(0);
    expect(semanticDensity("— … !!")).toBe(0);
  });

  it("uses the defaults only without a list; an empty custom list gives density 0 (as the original)", () => {
    expect(semanticDensity("never x", null)).toBe(0.5);
    expect(semanticDensity("never x")).toBe(0.5);
    expect(semanticDensity("never x", [])).toBe(0);
    expect(DEFAULT_LEADING_WORDS).toContain("VERIFY");
  });
});

describe("parseLeadingWords", () => {
  it("splits a comma-separated string, trimming and dropping empties", () => {
    expect(parseLeadingWords(" check , ,resolve ,")).toEqual(["check", "resolve"]);
  });

  it("takes list entries as given, as the original", () => {
    expect(parseLeadingWords([" must", "", "never"])).toEqual([" must", "", "never"]);
  });

  it("returns null (defaults) only without a value; an empty list or string stays empty", () => {
    expect(parseLeadingWords(null)).toBeNull();
    expect(parseLeadingWords(undefined)).toBeNull();
    expect(parseLeadingWords(" , ")).toEqual([]);
    expect(parseLeadingWords("")).toEqual([]);
    expect(parseLeadingWords([])).toEqual([]);
  });
});

describe("decideGate", () => {
  it("accepts a new best and credits the current step", () => {
    const d = decideGate({ ...base, candidateScore: 0.6 });
    expect(d).toEqual({
      action: "accept_new_best",
      currentScore: 0.6,
      bestScore: 0.6,
      bestStep: 7,
      candidateBecomesCurrent: true,
      candidateBecomesBest: true,
    });
  });

  it("rejects a tie with current", () => {
    const d = decideGate({ ...base, candidateScore: 0.5 });
    expect(d.action).toBe("reject");
    expect(d).toMatchObject({ currentScore: 0.5, bestScore: 0.5, bestStep: 0, candidateBecomesCurrent: false });
  });

  it("accepts (not a new best) a tie with best that beats current", () => {
    const d = decideGate({ ...base, currentScore: 0.4, bestScore: 0.6, bestStep: 3, candidateScore: 0.6 });
    expect(d).toMatchObject({ action: "accept", currentScore: 0.6, bestScore: 0.6, bestStep: 3 });
    expect(d.candidateBecomesBest).toBe(false);
  });

  it("rejects anything below current", () => {
    expect(decideGate({ ...base, candidateScore: 0.1 }).action).toBe("reject");
  });

  it("force-accepts when the gate is off, and only a strictly better score becomes best", () => {
    const worse = decideGate({ ...base, useGate: false, candidateScore: 0.2 });
    expect(worse).toMatchObject({ action: "force_accept", currentScore: 0.2, bestScore: 0.5, bestStep: 0 });
    expect(worse.candidateBecomesBest).toBe(false);
    const tie = decideGate({ ...base, useGate: false, candidateScore: 0.5 });
    expect(tie).toMatchObject({ action: "force_accept", bestStep: 0, candidateBecomesBest: false });
    const better = decideGate({ ...base, useGate: false, candidateScore: 0.9 });
    expect(better).toMatchObject({ action: "force_accept", bestScore: 0.9, bestStep: 7, candidateBecomesBest: true });
  });

  it("returns an immutable result", () => {
    const d = decideGate({ ...base, candidateScore: 0.6 });
    expect(Object.isFrozen(d)).toBe(true);
    expect(() => {
      (d as GateDecision).action = "reject";
    }).toThrow(TypeError);
  });

  it("keeps current and best locked together when they start equal", () => {
    const rng = new PyRandom(13);
    const seen = new Set<string>();
    for (let run = 0; run < 50; run++) {
      let current = rng.randbelow(10) / 10;
      let best = current;
      let bestStep = 0;
      for (let step = 1; step <= 40; step++) {
        // Coarse scores make ties with the incumbent frequent.
        const candidateScore = rng.randbelow(11) / 10;
        const d = decideGate({ candidateScore, currentScore: current, bestScore: best, bestStep, step, useGate: true });
        seen.add(d.action);
        expect(["accept_new_best", "reject"]).toContain(d.action);
        current = d.currentScore;
        best = d.bestScore;
        bestStep = d.bestStep;
        expect(current).toBe(best);
      }
    }
    expect(seen).toEqual(new Set(["accept_new_best", "reject"]));
  });
});

describe("decideGate with gate_rule significant", () => {
  const base = { candidateScore: 0.6, currentScore: 0.5, bestScore: 0.5, bestStep: 1, step: 2, useGate: true };
  it("a strictly higher candidate is accepted only when its improvement is significant", () => {
    expect(decideGate({ ...base, requireSignificance: true, significant: false }).action).toBe("reject");
    expect(decideGate({ ...base, requireSignificance: true }).action).toBe("reject");
    expect(decideGate({ ...base, requireSignificance: true, significant: true }).action).toBe("accept_new_best");
    expect(decideGate({ ...base, significant: false }).action).toBe("accept_new_best");
  });
  it("does not change an ungated run or a candidate that is not higher", () => {
    expect(decideGate({ ...base, useGate: false, requireSignificance: true, significant: false }).action).toBe(
      "force_accept",
    );
    expect(decideGate({ ...base, candidateScore: 0.5, requireSignificance: true, significant: true }).action).toBe(
      "reject",
    );
  });
});
