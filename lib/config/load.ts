/**
 * Loading a run config: YAML files joined through `_base_`, each layer normalised to the structured
 * form, merged base ← child with per-leaf provenance, then `key=value` overrides, then validation.
 * Used by the CLI (`loadRunConfig`) and by the dashboard for posted YAML (`parseRunConfigText`).
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { parseDocument, stringify } from "yaml";
import type { Trust } from "../contracts/config-trust";
import type { RunConfig } from "../contracts/run-config";
import { aliasedConfigPath } from "./config-alias";
import { ConfigError, displayPath } from "./errors";
import { mergeLayer, type ProvenanceMap } from "./merge";
import { isMapping, normaliseLayer, type Layer, type Mapping } from "./normalise";
import { overrideLayer } from "./overrides";
import { refuseServerOnlyKeys } from "./trust";
import { finaliseConfig } from "./validate";

/** A validated run config and how it was put together. */
export interface LoadedConfig {
  config: RunConfig;
  /** Every file read, absolute, base first. */
  files: string[];
  /** The final structured config (defaults filled in, aliases canonical) as YAML; never holds secrets. */
  resolvedYaml: string;
  /** Non-fatal notes: retired keys dropped, a key given twice in one layer. */
  warnings: string[];
}

/** Parses YAML text into a mapping; empty text (or only comments) is `{}`. */
function parseYamlText(text: string, source: string): Mapping {
  const doc = parseDocument(text);
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const where = pos ? `${source}:${pos.line}:${pos.col}` : source;
    // The first line is the reason; the position moves to the front and the source excerpt is dropped.
    const reason = (error.message.split("\n")[0] ?? error.code).replace(/\s*at line \d+, column \d+:?$/, "");
    throw new ConfigError(`${where}: invalid YAML: ${reason}`, source);
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return {};
  if (!isMapping(value))
    throw new ConfigError(`${source}: expected a mapping of config sections at the top level`, source);
  return value;
}

interface ChainContext {
  /** Absolute paths of the files that led here, for cycle detection. */
  chain: string[];
  files: string[];
  /** Set for posted configs: every `_base_` must stay inside this folder. */
  jail?: string;
}

function readConfigFile(absPath: string, referencedBy: string | null): string {
  try {
    return readFileSync(absPath, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && referencedBy !== null) {
      throw new ConfigError(
        `base config ${displayPath(absPath)} not found (the _base_ of ${referencedBy})`,
        referencedBy,
      );
    }
    if (code === "ENOENT")
      throw new ConfigError(`config file not found: ${displayPath(absPath)}`, displayPath(absPath));
    throw new ConfigError(`cannot read config ${displayPath(absPath)}: ${code ?? String(err)}`, displayPath(absPath));
  }
}

function resolveBase(raw: Mapping, source: string, dir: string, ctx: ChainContext): string | null {
  if (!Object.hasOwn(raw, "_base_")) return null;
  const base = raw._base_;
  delete raw._base_;
  if (Array.isArray(base)) throw new ConfigError(`_base_ in ${source}: one path is supported, not a list`, source);
  if (typeof base !== "string" || base.trim() === "") {
    throw new ConfigError(`_base_ in ${source}: expected a path relative to this file`, source);
  }
  const abs = resolve(dir, base);
  const rel = ctx.jail === undefined ? "" : relative(ctx.jail, abs);
  if (ctx.jail !== undefined && (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))) {
    throw new ConfigError(`_base_ in ${source}: ${base} is outside the folder configs may be read from`, source);
  }
  if (ctx.chain.includes(abs)) {
    const cycle = [...ctx.chain.slice(ctx.chain.indexOf(abs)), abs].map(displayPath).join(" → ");
    throw new ConfigError(`circular _base_ inheritance: ${cycle}`, source);
  }
  return abs;
}

/** The layers of `raw` (already parsed) and of its bases, base first. */
function layersOf(raw: Mapping, source: string, dir: string, ctx: ChainContext): Layer[] {
  const basePath = resolveBase(raw, source, dir, ctx);
  const own = normaliseLayer(raw, source);
  if (basePath === null) return [own];
  return [...layersOfFile(basePath, source, ctx), own];
}

function layersOfFile(absPath: string, referencedBy: string | null, ctx: ChainContext): Layer[] {
  const source = displayPath(absPath);
  const text = readConfigFile(absPath, referencedBy);
  const raw = parseYamlText(text, source);
  const layers = layersOf(raw, source, dirname(absPath), { ...ctx, chain: [...ctx.chain, absPath] });
  ctx.files.push(absPath); // after the recursion, so the deepest base comes first
  return layers;
}

/** Options of the loaders. */
export interface LoadOptions {
  /**
   * Who wrote the overrides: "local" (the CLI's user, default) or "request" (the dashboard), whose
   * overrides may not name programs, endpoints, output folders or environment variables.
   */
  trust?: Trust;
}

function build(layers: Layer[], overrides: readonly string[], files: string[], trust: Trust): LoadedConfig {
  const merged: Mapping = {};
  const prov: ProvenanceMap = new Map();
  const given = overrides.map(overrideLayer);
  if (trust === "request") given.forEach(refuseServerOnlyKeys);
  const all = [...layers, ...given];
  for (const layer of all) mergeLayer(merged, layer, prov);
  const config = finaliseConfig(merged, prov);
  return { config, files, resolvedYaml: stringify(config), warnings: all.flatMap((l) => l.warnings) };
}

/** Loads a config file (with its `_base_` chain), applies `key=value` overrides in order and validates. */
export function loadRunConfig(path: string, overrides: readonly string[] = [], opts: LoadOptions = {}): LoadedConfig {
  const ctx: ChainContext = { chain: [], files: [] };
  const layers = layersOfFile(resolve(aliasedConfigPath(path)), null, ctx);
  return build(layers, overrides, ctx.files, opts.trust ?? "local");
}

/**
 * Validates config YAML that did not come from a file (posted from the dashboard). `_base_` paths are
 * resolved against `baseDir` (default: the current directory) and may not leave it, so posted text
 * cannot make the server read arbitrary files.
 */
export function parseRunConfigText(
  yamlText: string,
  opts: LoadOptions & { baseDir?: string; sourceName?: string; overrides?: readonly string[] } = {},
): LoadedConfig {
  const source = opts.sourceName ?? "posted config";
  const baseDir = resolve(opts.baseDir ?? process.cwd());
  const ctx: ChainContext = { chain: [], files: [], jail: baseDir };
  const layers = layersOf(parseYamlText(yamlText, source), source, baseDir, ctx);
  return build(layers, opts.overrides ?? [], ctx.files, opts.trust ?? "local");
}
