/**
 * The presets the dashboard offers: every YAML under configs/ except the base and feature fragments,
 * each with its resolved config and seed skill. A preset is named by its path relative to configs/ and
 * must really lie there (no `..`, no absolute path, no symlink leading out).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { loadRunConfig, type LoadedConfig } from "../config";
import { aliasedConfigPath } from "../config/config-alias";
import type { PresetInfo } from "../contracts/api";
import { findBenchmark } from "../envs/catalog";
import { AppError } from "../errors";
import { resolveRoles } from "../backends/names";
import { confinedPathGuard, getBenchmark, initialSkillPath } from "../envs";
import { pathGuardFor } from "./trust";

export const CONFIGS_DIR = "configs";

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === "_base_" || e.name === "features" ? [] : walk(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The real path of a preset file inside configs/; anything else (or a missing file) is an unknown preset. */
export function presetPath(rootDir: string, preset: string): string {
  const unknown = () => new AppError("INVALID_REQUEST", `preset: unknown preset '${preset}'`, { field: "preset" });
  if (isAbsolute(preset) || preset.split(/[\\/]/).includes("..")) throw unknown();
  // Real path, so a symlink inside configs/ cannot make a file elsewhere a preset.
  // The original's folder names are accepted too (livemathematicianbench/… reads livemath/…).
  const checked = confinedPathGuard({ rootDir, roots: [CONFIGS_DIR], rootsLabel: "configs/" }).check(
    "preset",
    aliasedConfigPath(join(CONFIGS_DIR, preset), rootDir),
  );
  if (!checked.ok || !isFile(checked.path)) throw unknown();
  return checked.path;
}

/**
 * Loads a preset with the form's overrides (same rules as --cfg-options). The overrides come from a
 * request: keys that name programs, endpoints, output folders or environment variables are refused.
 */
export function loadPreset(
  rootDir: string,
  preset: string,
  overrides: string[] = [],
): LoadedConfig & { yaml: string; path: string } {
  const path = presetPath(rootDir, preset);
  const yaml = readFileSync(path, "utf8");
  return { ...loadRunConfig(path, overrides, { trust: "request" }), yaml, path };
}

/** A preset's seed skill, read as a dashboard run would (only inside the allowed roots). */
export function seedSkillOf(rootDir: string, config: LoadedConfig["config"]): string {
  const paths = pathGuardFor("request", rootDir, process.env);
  return readFileSync(
    paths.input("env.skill_init", config.env.skill_init || initialSkillPath(config.env.name)),
    "utf8",
  );
}

export function listPresets(rootDir: string): PresetInfo[] {
  const dir = resolve(rootDir, CONFIGS_DIR);
  return walk(dir)
    .map((abs) => relative(dir, abs).split(sep).join("/"))
    .sort((a, b) => Number(b.endsWith("sample.yaml")) - Number(a.endsWith("sample.yaml")) || a.localeCompare(b))
    .map((rel) => {
      const yaml = readFileSync(join(dir, rel), "utf8");
      try {
        const { config } = loadRunConfig(join(dir, rel));
        if (config.env.name) getBenchmark(config.env.name); // throws for benchmarks this version lacks
        const roles = resolveRoles(config.model);
        return {
          path: rel,
          env: config.env.name,
          title: findBenchmark(config.env.name)?.title ?? config.env.name,
          yaml,
          config,
          initialSkill: seedSkillOf(rootDir, config),
          simulated: roles.optimizer === "sim" || roles.target === "sim",
          roles: {
            optimizer: { backend: roles.optimizer, model: config.model.optimizer },
            target: { backend: roles.target, model: config.model.target },
          },
        };
      } catch (err) {
        const none = { backend: "", model: "" };
        return {
          path: rel,
          env: "",
          title: rel,
          yaml,
          config: undefined as never,
          initialSkill: "",
          simulated: false,
          roles: { optimizer: none, target: none },
          error: err instanceof Error ? err.message : String(err),
        };
      }
    });
}
