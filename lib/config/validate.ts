/**
 * Checks the merged structured config and turns it into a `RunConfig`: benchmark name, unknown keys
 * (with a suggestion), then types and ranges through the one `RunConfigSchema`, then the chosen
 * benchmark's own `env.*` options. Every failure is a one-line `ConfigError` naming the layer at fault.
 */
import type { z } from "zod";
import { EnvSectionSchema, RunConfigSchema, type ConfigSection, type RunConfig } from "../contracts/run-config";
import { findBenchmark, listBenchmarkInfos, type BenchmarkInfo } from "../envs/catalog";
import { ConfigError } from "./errors";
import { FLAT_KEYS, SECTION_SCHEMAS, isModelTransportKey, isSection, sectionKeys } from "./keys";
import { describeProvenance, findProvenance, type ProvenanceMap } from "./merge";
import { isMapping, type Mapping } from "./normalise";
import { describeSchema, fieldSchema } from "./schema-info";
import { suggestKey, type KeyCandidate } from "./suggest";

function benchmarkList(): string {
  return listBenchmarkInfos()
    .map((b) => (b.aliases.length ? `${b.name} (${b.aliases.join(", ")})` : b.name))
    .join(", ");
}

/** Reads `env.name`, replaces an alias with the canonical name, and returns the catalog entry (null: none set). */
function resolveBenchmark(merged: Mapping, prov: ProvenanceMap): BenchmarkInfo | null {
  const env = merged.env;
  if (!isMapping(env) || env.name === undefined) return null;
  const source = describeProvenance(findProvenance(prov, ["env", "name"]));
  if (typeof env.name !== "string") {
    throw new ConfigError(`env.name: expected a benchmark name (string) — set in ${source}`, "env.name");
  }
  if (env.name.trim() === "") return null;
  const info = findBenchmark(env.name);
  if (!info) {
    throw new ConfigError(
      `env.name: unknown benchmark '${env.name}' — set in ${source}; known: ${benchmarkList()}`,
      "env.name",
    );
  }
  env.name = info.name;
  return info;
}

function isKnownKey(section: ConfigSection, key: string, benchmark: BenchmarkInfo | null): boolean {
  if (sectionKeys(section).includes(key)) return true;
  if (section === "model") return isModelTransportKey(key);
  if (section === "env" && benchmark) return Object.hasOwn(benchmark.options.shape, key);
  return false;
}

function candidates(benchmark: BenchmarkInfo | null): KeyCandidate[] {
  const out: KeyCandidate[] = [];
  for (const [section, schema] of Object.entries(SECTION_SCHEMAS)) {
    for (const key of Object.keys(schema.shape)) out.push({ leaf: key, dotted: `${section}.${key}` });
  }
  // Legacy flat spellings, so a misspelt `edit_budjet` still finds optimizer.learning_rate.
  for (const [flat, [section, key]] of FLAT_KEYS)
    if (flat !== key) out.push({ leaf: flat, dotted: `${section}.${key}` });
  if (benchmark) for (const key of Object.keys(benchmark.options.shape)) out.push({ leaf: key, dotted: `env.${key}` });
  return out;
}

function envHint(key: string, benchmark: BenchmarkInfo | null): string {
  const owners = listBenchmarkInfos()
    .filter((b) => Object.hasOwn(b.options.shape, key))
    .map((b) => b.name);
  if (owners.length === 0) return "";
  if (!benchmark) return ` (an option of ${owners.join(", ")}; set env.name to use it)`;
  return ` (an option of ${owners.join(", ")}, not of ${benchmark.name})`;
}

function unknownKeyError(
  section: string,
  key: string,
  prov: ProvenanceMap,
  benchmark: BenchmarkInfo | null,
): ConfigError {
  const dotted = key === "" ? section : `${section}.${key}`;
  const origin = findProvenance(prov, dotted.split("."));
  const shown = origin?.written ?? dotted;
  const suggestion = suggestKey(section, key, candidates(benchmark));
  const hint = section === "env" ? envHint(key, benchmark) : "";
  const tail = suggestion ? `; did you mean ${suggestion}?` : "";
  return new ConfigError(`unknown key ${shown} in ${origin?.source ?? "the config"}${hint}${tail}`, shown);
}

/** Refuses keys that no schema, backend transport or benchmark option declares. */
function checkUnknownKeys(merged: Mapping, prov: ProvenanceMap, benchmark: BenchmarkInfo | null): void {
  for (const [section, value] of Object.entries(merged)) {
    if (!isSection(section)) throw unknownKeyError(section, "", prov, benchmark); // unreachable after normalisation
    if (!isMapping(value)) continue; // reported as a type error by the schema
    for (const key of Object.keys(value)) {
      if (!isKnownKey(section, key, benchmark)) throw unknownKeyError(section, key, prov, benchmark);
    }
  }
}

function expectedAt(path: readonly string[], benchmark: BenchmarkInfo | null): string {
  const [section, key] = path;
  if (section === undefined || !isSection(section)) return "mapping";
  if (key === undefined) return "mapping";
  const schema =
    fieldSchema(SECTION_SCHEMAS[section], key) ??
    (section === "env" && benchmark ? fieldSchema(benchmark.options, key) : undefined);
  return schema ? describeSchema(schema) : "value";
}

function issueError(
  issues: readonly z.core.$ZodIssue[],
  prefix: string[],
  prov: ProvenanceMap,
  benchmark: BenchmarkInfo | null,
): ConfigError {
  const first = issues[0];
  if (!first) return new ConfigError("invalid config");
  const path = [...prefix, ...first.path.map(String)];
  const dotted = path.join(".");
  const source = describeProvenance(findProvenance(prov, path));
  const more = issues.length > 1 ? ` (+${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  const message = `${dotted}: ${first.message} (expected ${expectedAt(path, benchmark)}) — set in ${source}${more}`;
  return new ConfigError(message, dotted);
}

/** Validates the merged structured config (mutated: `env.name` canonicalised) and returns the typed config. */
export function finaliseConfig(merged: Mapping, prov: ProvenanceMap): RunConfig {
  const benchmark = resolveBenchmark(merged, prov);
  checkUnknownKeys(merged, prov, benchmark);
  const parsed = RunConfigSchema.safeParse(merged);
  if (!parsed.success) throw issueError(parsed.error.issues, [], prov, benchmark);
  const config = parsed.data;
  if (!benchmark) return config;

  // The common schema lets benchmark keys through untyped; the catalog types them and adds defaults.
  const common: Mapping = {};
  const extras: Mapping = {};
  for (const [key, value] of Object.entries(config.env)) {
    (Object.hasOwn(EnvSectionSchema.shape, key) ? common : extras)[key] = value;
  }
  const options = benchmark.options.safeParse(extras);
  if (!options.success) throw issueError(options.error.issues, ["env"], prov, benchmark);
  return { ...config, env: { ...(common as RunConfig["env"]), ...options.data } };
}
