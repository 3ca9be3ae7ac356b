import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { prepareRun } from "./prepare";
import { simCoverage } from "./sim-coverage";

const prepared = (preset: string, overrides: string[] = []) =>
  prepareRun({ config: loadRunConfig(preset, overrides).config, rootDir: process.cwd(), trust: "local" });

describe("sim coverage of a run's data", () => {
  it.each(["searchqa", "livemath", "docvqa", "officeqa", "alfworld", "custom"])(
    "knows every item of the %s sample",
    (name) => {
      expect(simCoverage(prepared(`configs/${name}/sample.yaml`))).toBeNull();
    },
  );

  it("counts the items of a file without annotations (the sim scores them 0)", () => {
    const run = prepared("configs/custom/sample.yaml", [
      "env.data_path=tests/fixtures/custom-plain/plain-qa.jsonl",
      "env.id_field=id",
      "env.question_field=question",
      "env.answer_field=answer",
      "env.context_field=",
    ]);
    expect(simCoverage(run)).toEqual({ unannotated: 12, total: 12 });
  });

  it("says nothing when the target is a real backend", () => {
    const run = prepared("configs/custom/sample.yaml", [
      "env.data_path=tests/fixtures/custom-plain/plain-qa.jsonl",
      "env.id_field=id",
      "env.question_field=question",
      "env.answer_field=answer",
      "env.context_field=",
    ]);
    const model = { ...run.config.model, target_backend: "openai", target: "gpt-4.1-mini" };
    expect(simCoverage({ ...run, config: { ...run.config, model } })).toBeNull();
  });
});
