import { EvaluationSectionSchema, WorkerSectionSchema } from "@/lib/contracts/run-config";
import { describe, expect, it } from "vitest";
import { trustKindOf } from "@/lib/contracts/config-trust";
import {
  ALL_CONFIG_FIELDS,
  BENCHMARK_OPTION_FIELDS,
  CONFIG_SECTIONS_UI,
  configFieldsFor,
  configSectionsFor,
  type ConfigField,
} from "./config-fields";
import { buildOverrides, initialValues, readKey, skillError, validateValue } from "./form-values";

const field = (key: string): ConfigField => ALL_CONFIG_FIELDS.find((f) => f.key === key)!;
const preset = {
  train: { num_epochs: 3, batch_size: 10, steps_per_epoch: null, seed: 42 },
  gradient: { failure_only: false, reflect_mode: "deep" },
  evaluation: { leading_words: ["must", "always"] },
};

describe("config fields table", () => {
  it("has unique keys, a label and help for each", () => {
    const keys = ALL_CONFIG_FIELDS.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const f of ALL_CONFIG_FIELDS) {
      expect(f.label.length).toBeGreaterThan(0);
      expect(f.help.length).toBeGreaterThan(10);
    }
    expect(CONFIG_SECTIONS_UI.map((s) => s.id)).toEqual([
      "train",
      "gradient",
      "optimizer",
      "evaluation",
      "env",
      "budget",
      "transport",
      "sim",
      "worker",
    ]);
  });
});

describe("every gate option is in the form", () => {
  it("each key of the evaluation section has a field (a new key without one is caught here)", () => {
    const inForm = new Set(ALL_CONFIG_FIELDS.map((f) => f.key));
    const missing = Object.keys(EvaluationSectionSchema.shape)
      .map((k) => `evaluation.${k}`)
      .filter((k) => !inForm.has(k));
    expect(missing).toEqual([]);
  });

  it("each key of the worker section has a field", () => {
    const inForm = new Set(ALL_CONFIG_FIELDS.map((f) => f.key));
    const missing = Object.keys(WorkerSectionSchema.shape)
      .map((k) => `worker.${k}`)
      .filter((k) => !inForm.has(k));
    expect(missing).toEqual([]);
  });
});

describe("transport fields", () => {
  it("a model.* field the resolved config does not hold starts empty and is valid (nullable or a switch)", () => {
    const transport = ALL_CONFIG_FIELDS.filter((f) => f.key.startsWith("model.") && !f.key.startsWith("model.sim_"));
    const values = initialValues(transport, { model: {} });
    expect(transport.map((f) => [f.key, validateValue(f, values[f.key]!)]).filter(([, e]) => e !== null)).toEqual([]);
  });
});

describe("what the form may send", () => {
  it("offers no field that names a file, program, endpoint, variable or output folder (the server refuses them)", () => {
    const fields = [...ALL_CONFIG_FIELDS, ...Object.values(BENCHMARK_OPTION_FIELDS).flat()];
    expect(fields.filter((f) => trustKindOf(f.key) !== null).map((f) => f.key)).toEqual([]);
  });
});

describe("form values", () => {
  it("reads dotted keys and renders nulls and lists as text", () => {
    expect(readKey(preset, "train.batch_size")).toBe(10);
    expect(readKey(preset, "train.missing.deeper")).toBeUndefined();
    const v = initialValues(ALL_CONFIG_FIELDS, preset);
    expect(v["train.batch_size"]).toBe("10");
    expect(v["train.steps_per_epoch"]).toBe("");
    expect(v["gradient.failure_only"]).toBe(false);
    expect(v["evaluation.leading_words"]).toBe("must, always");
  });

  it("sends only changed fields, typed", () => {
    const base = initialValues(ALL_CONFIG_FIELDS, preset);
    const edited = {
      ...base,
      "train.batch_size": "20",
      "gradient.failure_only": true,
      "gradient.reflect_mode": "shallow",
      "train.seed": "42",
    };
    expect(buildOverrides(ALL_CONFIG_FIELDS, edited, base)).toEqual({
      "train.batch_size": 20,
      "gradient.failure_only": true,
      "gradient.reflect_mode": "shallow",
    });
  });

  it("validates numbers against the schema's ranges", () => {
    expect(validateValue(field("train.batch_size"), "0")).toBe("must be at least 1");
    expect(validateValue(field("train.batch_size"), "2.5")).toBe("expected a whole number");
    expect(validateValue(field("train.batch_size"), "")).toBe("required");
    expect(validateValue(field("train.steps_per_epoch"), "")).toBeNull();
    expect(validateValue(field("evaluation.gate_mixed_weight"), "1.5")).toBe("must be at most 1");
    expect(validateValue(field("env.split_ratio"), "2:1")).toMatch(/three positive integers/);
    expect(validateValue(field("gradient.failure_only"), true)).toBeNull();
  });
});

describe("benchmark options in the form", () => {
  it("adds a section of the benchmark's own env options after Benchmark, filled from the preset and sent when changed", async () => {
    const { loadRunConfig } = await import("@/lib/config");
    const ids = configSectionsFor("alfworld", "ALFWorld: act in a text household simulator").map((s) => s.id);
    expect(ids).toEqual([
      "train",
      "gradient",
      "optimizer",
      "evaluation",
      "env",
      "env-alfworld",
      "budget",
      "transport",
      "sim",
      "worker",
    ]);
    expect(configSectionsFor("custom", "Custom").map((s) => s.id)).not.toContain("env-custom");
    // Every field names a key the benchmark's loaded preset really has.
    for (const b of ["searchqa", "livemath", "docvqa", "officeqa", "spreadsheetbench", "alfworld"]) {
      const own = configFieldsFor(b).filter((f) => !ALL_CONFIG_FIELDS.includes(f));
      expect(own.length, b).toBeGreaterThan(0);
      const loaded = loadRunConfig(`configs/${b}/sample.yaml`).config;
      for (const f of own) expect(readKey(loaded, f.key), `${b}: ${f.key}`).not.toBeUndefined();
    }
    const { config } = loadRunConfig("configs/alfworld/sample.yaml");
    const fields = configFieldsFor("alfworld");
    const base = initialValues(fields, config);
    expect(base["env.max_steps"]).toBe("24");
    expect(base["env.simulator"]).toBe("builtin");
    expect(buildOverrides(fields, { ...base, "env.max_steps": "10" }, base)).toEqual({ "env.max_steps": 10 });
  });
});

describe("what the user typed", () => {
  it('says "not a number" for a half-typed exponent like "1e", and "required" only for an empty field', () => {
    const lr = field("optimizer.learning_rate");
    expect(validateValue(lr, "1e")).toBe("not a number");
    expect(validateValue(lr, "abc")).toBe("not a number");
    expect(validateValue(lr, "")).toBe("required");
    expect(validateValue(lr, "1e1")).toBeNull();
  });

  it("blocks a seed skill over 200 KB (counted in UTF-8 bytes, as the server counts) with one message", () => {
    expect(skillError("# Skill\n")).toBeNull();
    expect(skillError("a".repeat(200 * 1024))).toBeNull();
    expect(skillError("a".repeat(200 * 1024 + 1))).toBe("the skill is 201 KB; the limit is 200 KB");
    expect(skillError("é".repeat(110 * 1024))).toBe("the skill is 220 KB; the limit is 200 KB");
    expect(skillError("x".repeat(2 * 1024 * 1024))).toBe("the skill is 2.0 MB; the limit is 200 KB");
  });
});
