/**
 * Turns one parsed layer (a config file, or one override) into the structured form before it is merged,
 * so that a child always wins over its base whichever representation either of them uses
 * (spec/engine.md §2.1 steps 1–3). Secrets and retired keys are dealt with here, where the message can
 * still name the key exactly as it was written.
 */
import { ConfigError } from "./errors";
import { RETIRED_KEYS, flatKeyPath, foldCodexAliases, isSecretKey, isSection } from "./keys";

/** A plain key/value mapping (a YAML mapping after parsing). */
export type Mapping = Record<string, unknown>;

/** One layer in structured form, ready to merge. */
export interface Layer {
  /** Where it came from, as named in messages: a file path or "--cfg-options". */
  source: string;
  /** `{ section: { key: value } }` only. */
  data: Mapping;
  /** Dotted structured path → the flat key the user actually wrote, for keys that were mapped. */
  written: Map<string, string>;
  warnings: string[];
}

/** True for a YAML mapping (not a list, not null). */
export function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Refuses credentials at any depth (they are read from environment variables only, so they never
 * reach the DB, the outputs or the browser) and `__proto__`, which plain-object merging would turn
 * into a prototype write.
 */
export function assertNoForbiddenKeys(value: unknown, source: string, path: string[] = []): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertNoForbiddenKeys(item, source, [...path, String(i)]));
    return;
  }
  if (!isMapping(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const dotted = [...path, key].join(".");
    if (key === "__proto__") throw new ConfigError(`${dotted} in ${source}: this key name is not allowed`, dotted);
    if (isSecretKey(key)) {
      throw new ConfigError(
        `${dotted} in ${source}: secrets are read from environment variables, not config files`,
        dotted,
      );
    }
    assertNoForbiddenKeys(child, source, [...path, key]);
  }
}

function dropRetired(map: Mapping, dotted: string, key: string, source: string, warnings: string[]): void {
  if (!Object.hasOwn(map, key)) return;
  delete map[key];
  warnings.push(`${dotted} in ${source} is retired and was ignored`);
}

/** Splits the top level into section mappings and flat keys (legacy spelling, or pass-through to env). */
function splitTopLevel(top: Mapping, source: string): { sections: Record<string, Mapping>; flat: Mapping } {
  const sections: Record<string, Mapping> = {};
  const flat: Mapping = {};
  for (const [key, value] of Object.entries(top)) {
    if (!isSection(key)) {
      flat[key] = value;
    } else if (isMapping(value)) {
      // Sections are copied so later edits (alias folding, retired keys) never touch the caller's object.
      sections[key] = key === "model" ? foldCodexAliases(value) : { ...value };
    } else if (value === null) {
      continue; // `train:` with nothing under it
    } else if (key === "env") {
      flat[key] = value; // legacy flat `env: <benchmark>`
    } else {
      throw new ConfigError(`${key} in ${source}: expected a mapping of ${key}.* settings`, key);
    }
  }
  return { sections, flat };
}

/** Normalises one parsed layer (without `_base_`) into structured form. */
export function normaliseLayer(raw: Mapping, source: string): Layer {
  assertNoForbiddenKeys(raw, source);
  const warnings: string[] = [];
  const top = foldCodexAliases(raw);
  dropRetired(top, RETIRED_KEYS.flat, RETIRED_KEYS.flat, source, warnings);
  const { sections, flat } = splitTopLevel(top, source);
  const gradient = sections[RETIRED_KEYS.section];
  if (gradient)
    dropRetired(gradient, `${RETIRED_KEYS.section}.${RETIRED_KEYS.key}`, RETIRED_KEYS.key, source, warnings);

  const data: Record<string, Mapping> = {};
  const written = new Map<string, string>();
  for (const [key, value] of Object.entries(flat)) {
    const [section, leaf] = flatKeyPath(key);
    const dotted = `${section}.${leaf}`;
    // Inside one layer the structured spelling wins over the flat one (spec §2.1 step 2).
    if (sections[section] && Object.hasOwn(sections[section], leaf)) {
      warnings.push(`${key} and ${dotted} are both set in ${source}; ${dotted} wins`);
      continue;
    }
    (data[section] ??= {})[leaf] = value;
    written.set(dotted, key);
  }
  for (const [section, map] of Object.entries(sections)) data[section] = { ...data[section], ...map };
  return { source, data, written, warnings };
}
