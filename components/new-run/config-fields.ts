/**
 * The hyper-parameters the New run form edits: dotted key → label, one-line help and input kind.
 * Covers every key of RunConfigSchema's train / gradient / optimizer / evaluation sections, plus the env
 * keys that matter per run, the simulated model's knobs and the worker section. Ranges mirror lib/contracts/run-config.ts.
 */
import type { ConfigField, ConfigSectionSpec } from "./config-field-kinds";
import { BENCHMARK_OPTION_FIELDS } from "./config-fields-benchmarks";
import { RUN_SECTIONS } from "./config-fields-run";
import { TRAINING_SECTIONS } from "./config-fields-training";
import { WORKER_SECTION } from "./config-fields-worker";

export type { ConfigField, ConfigSectionSpec } from "./config-field-kinds";
export { BENCHMARK_OPTION_FIELDS } from "./config-fields-benchmarks";

export const CONFIG_SECTIONS_UI: ConfigSectionSpec[] = [...TRAINING_SECTIONS, ...RUN_SECTIONS, WORKER_SECTION];

export const ALL_CONFIG_FIELDS: ConfigField[] = CONFIG_SECTIONS_UI.flatMap((s) => s.fields);
/** The form's sections for a benchmark: the common ones plus its own options after "Benchmark". */
export function configSectionsFor(benchmark: string, title: string): ConfigSectionSpec[] {
  const own = BENCHMARK_OPTION_FIELDS[benchmark];
  if (!own) return CONFIG_SECTIONS_UI;
  const at = CONFIG_SECTIONS_UI.findIndex((s) => s.id === "env") + 1;
  const section: ConfigSectionSpec = {
    id: `env-${benchmark}`,
    title: `${title.split(":")[0]} options`,
    blurb: "Settings of this benchmark's environment.",
    fields: own,
  };
  return [...CONFIG_SECTIONS_UI.slice(0, at), section, ...CONFIG_SECTIONS_UI.slice(at)];
}

/** Every field the form edits for a benchmark. */
export function configFieldsFor(benchmark: string): ConfigField[] {
  return [...ALL_CONFIG_FIELDS, ...(BENCHMARK_OPTION_FIELDS[benchmark] ?? [])];
}
