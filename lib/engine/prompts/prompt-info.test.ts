import { describe, expect, it } from "vitest";
import type { UpdateMode } from "../types";
import { analystSystemPrompt } from "./analyst";
import { metaSkillSystemPrompt, rewriteSystemPrompt, slowUpdateSystemPrompt } from "./epoch";
import { levelMergeSystemPrompt } from "./merge";
import { rankingSystemPrompt } from "./select";

// Each test names a piece of information the original's prompt gives the optimizer, and checks our
// rendered prompt carries it (our wording).
const analyst = (kind: "failure" | "success", mode: UpdateMode) =>
  analystSystemPrompt({ kind, mode, taxonomy: ["rule_missing", "other"], skillAware: true, appendixSource: "both" });

describe("skill-aware suffixes", () => {
  it.each(["patch", "rewrite_from_suggestions"] as const)(
    "failure analyst (%s): lapse examples, the test, note rules, [] and independence",
    (mode) => {
      const p = analyst("failure", mode);
      expect(p).toMatch(/SKILL_DEFECT/);
      expect(p).toMatch(/EXECUTION_LAPSE: .*malformed output.*copied the feedback text verbatim.*"stop"/s);
      expect(p).toMatch(/if followed, prevents this failure/);
      expect(p).toMatch(/When unsure, choose EXECUTION_LAPSE/);
      expect(p).toMatch(/must not introduce a new rule/);
      expect(p).toMatch(/Use \[\] when there is no lapse/);
      expect(p).toMatch(/Edits and notes are independent/);
      expect(p).toContain('"appendix_notes"');
    },
  );

  it("success analyst: DISCOVERY ≈ append, OPTIMIZATION ≈ replace, labels only for the log, [] when none", () => {
    const p = analyst("success", "patch");
    expect(p).toMatch(/DISCOVERY: [^\n]*usually an append/);
    expect(p).toMatch(/OPTIMIZATION: [^\n]*usually a replace/);
    expect(p).toMatch(/for the log only/);
    expect(p).toMatch(/must not introduce a new rule/);
    expect(p).toMatch(/Use \[\] when there is none/);
  });

  it("full rewrite has no suffix", () => {
    expect(analyst("failure", "full_rewrite_minibatch")).not.toContain("EXECUTION_LAPSE");
  });
});

describe("level merge", () => {
  it.each(["patch", "rewrite_from_suggestions", "full_rewrite_minibatch"] as const)(
    "failure merge (%s) may drop single-patch, task-specific items",
    (mode) => {
      expect(levelMergeSystemPrompt("failure", mode)).toMatch(
        /only one (patch|candidate) (proposes|makes) may be dropped when it is specific to one task/,
      );
    },
  );

  it("full-rewrite merges combine into one document and keep the task-format instructions", () => {
    for (const kind of ["failure", "success"] as const) {
      const p = levelMergeSystemPrompt(kind, "full_rewrite_minibatch");
      expect(p).toMatch(/one complete merged document/);
      expect(p).toMatch(/essential task-format instructions/);
    }
  });
});

describe("ranking", () => {
  it.each(["patch", "rewrite_from_suggestions"] as const)(
    "(%s) defines complementarity as filling gaps and gives the half-the-failures example",
    (mode) => {
      const p = rankingSystemPrompt(mode);
      expect(p).toMatch(/complementarity \(it fills a gap in the current skill rather than duplicating/);
      expect(p).toMatch(/fixes half of the failures beats one that fixes a single edge case/);
      expect(p).toMatch(/general principle/);
    },
  );
});

describe("rewrite and full rewrite", () => {
  it("the rewriter preserves the skill's scope and organises better", () => {
    expect(rewriteSystemPrompt()).toMatch(/Preserve the skill's scope \(general, reusable guidance/);
    expect(rewriteSystemPrompt()).toMatch(/better organised/);
  });

  it("the full-rewrite analyst keeps the scope and organises better", () => {
    const p = analyst("failure", "full_rewrite_minibatch");
    expect(p).toMatch(/Keep the skill's scope \(general, reusable guidance/);
    expect(p).toMatch(/better organised/);
  });
});

describe("slow update and meta skill", () => {
  it("the slow-update block is read-only to step-level optimisation and has no length limit", () => {
    expect(slowUpdateSystemPrompt()).toMatch(/read-only to the step-level optimisation/);
    expect(slowUpdateSystemPrompt()).toMatch(/no length limit/);
  });

  it("the meta memory holds no target-facing instructions and does not restate the skill", () => {
    expect(metaSkillSystemPrompt()).toMatch(/no instructions for the target model/);
    expect(metaSkillSystemPrompt()).toMatch(/does not restate the skill/);
  });
});
