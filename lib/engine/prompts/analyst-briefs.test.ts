import { describe, expect, it } from "vitest";
import type { AnalystBrief, Environment } from "../ports";
import { analystSystemPrompt } from "./analyst";
import type { UpdateMode } from "../types";
import { createEnvironment, listBenchmarks } from "../../envs/registry";
import { buildRunConfig } from "../../envs/test-helpers";

function envOf(name: string): Environment {
  const extra =
    name === "custom"
      ? { task_description: "Answer the question." }
      : name === "officeqa"
        ? { split_mode: "sample" }
        : {};
  return createEnvironment(buildRunConfig({ name, ...extra }));
}

const render = (env: Environment, kind: "failure" | "success", mode: UpdateMode = "patch") =>
  analystSystemPrompt({
    kind,
    mode,
    taxonomy: env.failureTaxonomy(),
    brief: env.analystBrief?.(),
    skillAware: false,
    appendixSource: "both",
  });

/** The information each benchmark's analysts must get, checked in the rendered prompts. */
const EXPECT: Record<string, { failure: RegExp[]; success: RegExp[] }> = {
  searchqa: {
    failure: [/predicted answer next to its gold/, /why exact match rejected it/],
    success: [/decide between similar candidate answers/],
  },
  livemath: {
    failure: [/tell the options apart precisely/, /do not memorise particular theorems/],
    success: [/comparing options exactly/, /equality conditions/],
  },
  docvqa: {
    failure: [/which evidence the agent selects/, /exactly it copies the answer span/],
    success: [/copying the exact span/, /shortest exact answer/],
  },
  officeqa: {
    failure: [/Never hard-code file names, years/],
    success: [/narrowing to the right file early/, /clean list of operands/],
  },
  spreadsheetbench: {
    failure: [/too few rows or columns/, /broader exploration of the data/],
    success: [/read enough rows/],
  },
  alfworld: {
    failure: [/object or receptacle names of one game/],
    success: [/explored efficiently or used appliances well/],
  },
  custom: { failure: [/why it was scored wrong/], success: [/several successful answers/] },
};

describe("analyst briefs", () => {
  it.each(listBenchmarks())(
    "%s: the failure analyst sees every failure type with its definition and the benchmark's guidance",
    (name) => {
      const env = envOf(name);
      const brief = env.analystBrief?.() as AnalystBrief;
      expect(brief.failureTypes.map((t) => t.name)).toEqual(env.failureTaxonomy());
      for (const mode of ["patch", "rewrite_from_suggestions", "full_rewrite_minibatch"] as const) {
        const prompt = render(env, "failure", mode);
        for (const t of brief.failureTypes) {
          expect(t.definition.length).toBeGreaterThan(15);
          expect(prompt).toContain(`- ${t.name}: ${t.definition}`);
        }
        for (const re of EXPECT[name]!.failure) expect(prompt).toMatch(re);
      }
    },
  );

  it.each(listBenchmarks())(
    "%s: the success analyst gets the benchmark's guidance and the several-trajectories rule",
    (name) => {
      const env = envOf(name);
      for (const mode of ["patch", "rewrite_from_suggestions", "full_rewrite_minibatch"] as const) {
        const prompt = render(env, "success", mode);
        expect(prompt).toContain("Only a pattern seen in several trajectories is worth reinforcing");
        for (const re of EXPECT[name]!.success) expect(prompt).toMatch(re);
        expect(prompt).not.toContain("What each failure type means");
      }
    },
  );

  it("alfworld: both analysts see the six task types with their descriptions", () => {
    const env = envOf("alfworld");
    for (const kind of ["failure", "success"] as const) {
      const prompt = render(env, kind);
      for (const [type, text] of [
        ["pick_and_place_simple", "put an object in or on a receptacle"],
        ["pick_two_obj_and_place", "two objects of the same kind"],
        ["look_at_obj_in_light", "under a desk lamp"],
        ["pick_heat_then_place_in_recep", "heat an object"],
        ["pick_cool_then_place_in_recep", "cool an object"],
        ["pick_clean_then_place_in_recep", "clean an object"],
      ]) {
        expect(prompt).toMatch(new RegExp(`- ${type}: [^\\n]*${text}`));
      }
    }
  });

  it("without a brief the prompt names the categories only", () => {
    const prompt = analystSystemPrompt({
      kind: "failure",
      mode: "patch",
      taxonomy: ["a", "b"],
      skillAware: false,
      appendixSource: "both",
    });
    expect(prompt).toContain("failure types: a, b.");
    expect(prompt).not.toContain("Guidance for this benchmark");
  });
});
