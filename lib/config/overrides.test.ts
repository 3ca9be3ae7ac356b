import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, castOverrideValue, loadRunConfig } from "./index";
import { overrideLayer } from "./overrides";

let dir: string;
let empty: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "skillopt-overrides-"));
  empty = join(dir, "empty.yaml");
  writeFileSync(empty, "");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("castOverrideValue", () => {
  it.each<[string, unknown]>([
    ["true", true],
    ["yes", true],
    ["YES", true],
    ["False", false],
    ["no", false],
    ["12", 12],
    ["-3", -3],
    ["1_000", 1000],
    ["1.5", 1.5],
    ["1e3", 1000],
    [".5", 0.5],
    ["inf", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["nan", Number.NaN],
    ["abc", "abc"],
    ["", ""],
    ["1.2.3", "1.2.3"],
  ])("%j → %j", (raw, expected) => {
    expect(castOverrideValue(raw)).toEqual(expected);
  });
});

describe("overrides", () => {
  it("splits at the first '='", () => {
    const layer = overrideLayer("env.answer_regex=a=b=c");
    expect(layer.data).toEqual({ env: { answer_regex: "a=b=c" } });
  });

  it("keeps a benchmark's text keys as text (a regex is not a YAML list, a column name not a number)", () => {
    expect(overrideLayer("env.answer_regex=[A-D]").data).toEqual({ env: { answer_regex: "[A-D]" } });
    expect(overrideLayer("env.question_field=2024").data).toEqual({ env: { question_field: "2024" } });
    expect(overrideLayer("env.numeric_tolerance=0.01").data).toEqual({ env: { numeric_tolerance: 0.01 } });
  });

  it("refuses an override without '='", () => {
    const err = (() => {
      try {
        loadRunConfig(empty, ["train.seed"]);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe("override 'train.seed' in --cfg-options has no '=' (expected key=value)");
    expect((err as ConfigError).field).toBe("train.seed");
  });

  it("maps undotted keys through the flat table", () => {
    const { config } = loadRunConfig(empty, [
      "edit_budget=3",
      "seed=7",
      "env=searchqa",
      "batch_size=10",
      "codex_bin=/x",
    ]);
    expect(config.optimizer.learning_rate).toBe(3);
    expect(config.train).toMatchObject({ seed: 7, batch_size: 10 });
    expect(config.env.name).toBe("searchqa");
    expect(config.model.codex_exec_path).toBe("/x");
  });

  it("sets dotted keys, in order, after the files", () => {
    const file = join(dir, "f.yaml");
    writeFileSync(file, "train: {num_epochs: 2}\n");
    const { config } = loadRunConfig(file, ["train.num_epochs=5", "train.num_epochs=6", "optimizer.use_meta_skill=no"]);
    expect(config.train.num_epochs).toBe(6);
    expect(config.optimizer.use_meta_skill).toBe(false);
  });

  it("keeps text for string-valued keys and accepts flow lists", () => {
    const { config } = loadRunConfig(empty, [
      "model.target=1234",
      "env.name=officeqa",
      "env.data_dirs=[a, b]",
      "evaluation.leading_words=[check, verify]",
    ]);
    expect(config.model.target).toBe("1234");
    expect(config.env.data_dirs).toEqual(["a", "b"]);
    expect(config.evaluation.leading_words).toEqual(["check", "verify"]);
  });

  it("suggests the section for a misspelt dotted key", () => {
    expect(() => loadRunConfig(empty, ["optimiser.learning_rate=2"])).toThrow(
      /did you mean optimizer\.learning_rate\?/,
    );
  });

  it("rejects non-finite numbers where a finite one is needed", () => {
    expect(() => loadRunConfig(empty, ["evaluation.semantic_density_weight=nan"])).toThrow(
      /^evaluation\.semantic_density_weight: .*— set in --cfg-options$/,
    );
  });
});
