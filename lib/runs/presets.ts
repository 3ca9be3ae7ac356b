/**
 * The presets the dashboard offers: every YAML under configs/ except the base and feature fragments,
 * each with its resolved config and seed skill.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { loadRunConfig, type LoadedConfig } from "../config";
import type { PresetInfo } from "../contracts/api";
import { findBenchmark } from "../envs/catalog";
import { AppError } from "../errors";
import { resolveRoles } from "../backends/registry";
import { getBenchmark, initialSkillPath } from "../envs";

export const CONFIGS_DIR = "configs";

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === "_base_" || e.name === "features" ? [] : walk(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

/** Absolute path of a preset, refusing anything outside configs/. */
export function presetPath(rootDir: string, preset: string): string {
  const base = resolve(rootDir, CONFIGS_DIR);
  const p = resolve(base, preset);
  if (isAbsolute(preset) || !p.startsWith(base + sep) || !existsSync(p)) {
    throw new AppError("INVALID_REQUEST", `preset: unknown preset '${preset}'`, { field: "preset" });
  }
  return p;
}

/** Loads a preset with the form's overrides (same rules as --cfg-options). */
export function loadPreset(rootDir: string, preset: string, overrides: string[] = []): LoadedConfig & { yaml: string; path: string } {
  const path = presetPath(rootDir, preset);
  const yaml = readFileSync(path, "utf8");
  return { ...loadRunConfig(path, overrides), yaml, path };
}

export function seedSkillOf(rootDir: string, config: LoadedConfig["config"]): string {
  const p = config.env.skill_init || initialSkillPath(config.env.name);
  return readFileSync(isAbsolute(p) ? p : resolve(rootDir, p), "utf8");
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
        return { path: rel, env: "", title: rel, yaml, config: undefined as never, initialSkill: "", simulated: false, roles: { optimizer: none, target: none }, error: err instanceof Error ? err.message : String(err) };
      }
    });
}
