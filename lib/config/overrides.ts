/**
 * `key=value` overrides (spec/engine.md §2.3). Each override becomes a one-key layer merged after the
 * files, in order, through the same normalisation as a file, so flat names (`edit_budget=3`), Codex
 * aliases, retired keys and secret checks behave exactly as they do in YAML.
 */
import { parse as parseYaml } from "yaml";
import { CONFIG_SECTIONS } from "../contracts/run-config";
import { BENCHMARKS } from "../envs/catalog";
import { ConfigError, OVERRIDES_SOURCE } from "./errors";
import { SECTION_SCHEMAS, canonicalCodexKey, flatKeyPath, isSection } from "./keys";
import { normaliseLayer, type Layer, type Mapping } from "./normalise";
import { expectsString, fieldSchema } from "./schema-info";
import { suggestKey } from "./suggest";

// Python's int() and float() spellings (underscores between digits, inf/nan), which the original used.
const DIGITS = String.raw`\d(?:_?\d)*`;
const INT_RE = new RegExp(`^[+-]?${DIGITS}$`);
const FLOAT_RE = new RegExp(`^[+-]?(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?$`);
const SPECIAL_FLOAT_RE = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Casts an override value as the original did: true/yes and false/no (any case) → booleans, then an
 * integer, then a float (so `1e3`, `inf`, `nan` are numbers; the schema later refuses non-finite ones),
 * otherwise the string unchanged.
 */
export function castOverrideValue(raw: string): unknown {
  const text = raw.trim();
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "yes") return true;
  if (lower === "false" || lower === "no") return false;
  if (INT_RE.test(text) || FLOAT_RE.test(text)) return Number(text.replace(/_/g, ""));
  const special = SPECIAL_FLOAT_RE.exec(text);
  if (special) {
    if (special[2]?.toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  return raw;
}

function castFlowList(raw: string, override: string): unknown[] | null {
  const text = raw.trim();
  if (!text.startsWith("[") || !text.endsWith("]")) return null;
  try {
    const value: unknown = parseYaml(text);
    return Array.isArray(value) ? value : null;
  } catch {
    throw new ConfigError(
      `override '${override}' in ${OVERRIDES_SOURCE}: the value is not a valid list like [a, b]`,
      override,
    );
  }
}

/** Where a key lands in the structured config, so string-valued keys can keep their raw text. */
function targetPath(segments: readonly string[]): string[] {
  if (segments.length === 1) return flatKeyPath(canonicalCodexKey(segments[0] ?? ""));
  return [...segments];
}

/** `env.*` keys that some benchmark declares as text (the override does not know the benchmark yet). */
const BENCHMARK_TEXT_KEYS = new Set(
  BENCHMARKS.flatMap((b) =>
    Object.entries(b.options.shape)
      .filter(([, s]) => expectsString(s as never))
      .map(([k]) => k),
  ),
);

function castForKey(raw: string, path: readonly string[], override: string): unknown {
  // A benchmark's own text keys stay text: `env.answer_regex=[A-D]` is a pattern, not a YAML list.
  if (path.length === 2 && path[0] === "env" && BENCHMARK_TEXT_KEYS.has(path[1] ?? "")) return raw;
  const list = castFlowList(raw, override);
  if (list) return list;
  const [section, key] = path;
  const schema =
    section && key && path.length === 2 && isSection(section) ? fieldSchema(SECTION_SCHEMAS[section], key) : undefined;
  // `model.target=1234` or `env.split_dir=2024` mean text; casting them would only earn a type error.
  if (schema && expectsString(schema)) return raw;
  return castOverrideValue(raw);
}

function splitKey(key: string, override: string): string[] {
  const segments = key.split(".");
  if (key === "" || segments.some((s) => s.trim() === "")) {
    throw new ConfigError(`override '${override}' in ${OVERRIDES_SOURCE}: malformed key '${key}'`, override);
  }
  const [section] = segments;
  if (segments.length > 1 && section !== undefined && !isSection(section)) {
    const near = suggestKey(
      "",
      section,
      CONFIG_SECTIONS.map((s) => ({ leaf: s, dotted: s })),
    );
    const tail = near ? `; did you mean ${[near, ...segments.slice(1)].join(".")}?` : "";
    throw new ConfigError(`unknown key ${key} in ${OVERRIDES_SOURCE}: ${section} is not a config section${tail}`, key);
  }
  if (segments.length > 1 && section === "model" && segments[1] !== undefined)
    segments[1] = canonicalCodexKey(segments[1]);
  return segments;
}

/** Parses one `key=value` override into a layer (split at the first `=`; a dotted key names `section.key`). */
export function overrideLayer(override: string): Layer {
  const eq = override.indexOf("=");
  if (eq < 0) {
    throw new ConfigError(`override '${override}' in ${OVERRIDES_SOURCE} has no '=' (expected key=value)`, override);
  }
  const segments = splitKey(override.slice(0, eq).trim(), override);
  const value = castForKey(override.slice(eq + 1), targetPath(segments), override);
  let raw: unknown = value;
  for (const segment of [...segments].reverse()) raw = { [segment]: raw } satisfies Mapping;
  return normaliseLayer(raw as Mapping, OVERRIDES_SOURCE);
}
