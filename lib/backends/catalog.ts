/**
 * Which backends this installation can use, for the dashboard's pickers (server-side, no SDKs).
 * Availability depends on credentials in the environment (and, for the exec backends, on finding the
 * agent CLI); the simulated model is always there.
 * `openai-compatible` is available when the environment names a server — OPENAI_COMPATIBLE_BASE_URL,
 * or OPENAI_COMPATIBLE_PRESET with the preset's key (local presets need none) — i.e. exactly when a run
 * would be accepted without config keys. Whether a local server is running shows on the first call.
 */
import type { BackendInfo } from "../contracts/api";
import { checkExecBinary } from "./exec/env";
import { listBackendExtensions } from "./extensions";
import { COMPATIBLE_PRESETS } from "./openai-compatible/presets";

export const SIM_NOTE = "Simulated model — scores are synthetic";

type Vars = Record<string, unknown>;
const BOTH: Array<"optimizer" | "target"> = ["optimizer", "target"];
const has = (env: Vars, name: string) => typeof env[name] === "string" && (env[name] as string).trim() !== "";
/** The shared variable or both role variants. */
const hasForRoles = (env: Vars, name: string) =>
  has(env, name) || (has(env, `OPTIMIZER_${name}`) && has(env, `TARGET_${name}`));

/** Each backend's credential check: null when usable, else what to set. */
const CATALOG: Array<{ name: string; roles: Array<"optimizer" | "target">; missing: (env: Vars) => string | null }> = [
  { name: "sim", roles: BOTH, missing: () => null },
  { name: "openai", roles: BOTH, missing: (env) => (hasForRoles(env, "OPENAI_API_KEY") ? null : "set OPENAI_API_KEY") },
  {
    name: "azure-openai",
    roles: BOTH,
    missing: (env) => {
      const need = [
        ...(hasForRoles(env, "AZURE_OPENAI_ENDPOINT") ? [] : ["AZURE_OPENAI_ENDPOINT"]),
        ...(hasForRoles(env, "AZURE_OPENAI_API_KEY") || hasForRoles(env, "AZURE_OPENAI_AD_TOKEN")
          ? []
          : ["AZURE_OPENAI_API_KEY (or AZURE_OPENAI_AD_TOKEN)"]),
      ];
      return need.length ? `set ${need.join(" and ")}` : null;
    },
  },
  {
    name: "anthropic",
    roles: BOTH,
    missing: (env) => (hasForRoles(env, "ANTHROPIC_API_KEY") ? null : "set ANTHROPIC_API_KEY"),
  },
  { name: "openai-compatible", roles: BOTH, missing: (env) => compatibleMissing(env) },
  { name: "codex-exec", roles: ["target"], missing: (env) => execMissing(env, "codex", "CODEX_EXEC_PATH") },
  {
    name: "claude-code-exec",
    roles: ["target"],
    missing: (env) => execMissing(env, "claude", "CLAUDE_CODE_EXEC_PATH"),
  },
];

export interface PresetInfo {
  name: string;
  label: string;
  baseURL: string;
  keyVar: string | null;
  modelHint: string;
  available: boolean;
  note: string;
}

/** The openai-compatible presets, each with whether its key is set. */
export function listCompatiblePresets(env: Vars): PresetInfo[] {
  return Object.values(COMPATIBLE_PRESETS).map((p) => {
    const ok = p.keyVar === null || has(env, p.keyVar) || has(env, "OPENAI_COMPATIBLE_API_KEY");
    const note = p.keyVar === null ? "local server, no key" : ok ? "credentials found" : `set ${p.keyVar}`;
    return {
      name: p.name,
      label: p.label,
      baseURL: p.baseURL,
      keyVar: p.keyVar,
      modelHint: p.modelHint,
      available: ok,
      note,
    };
  });
}

/** Null when the agent CLI is found (its *_EXEC_PATH, else its name on PATH); else how to install it. */
function execMissing(env: Vars, kind: "codex" | "claude", pathVar: string): string | null {
  const bin = has(env, pathVar) ? String(env[pathVar]).trim() : kind;
  return checkExecBinary(bin, { PATH: typeof env.PATH === "string" ? env.PATH : "" }, kind);
}

/** What the openai-compatible backend still needs from the environment, or null. */
function compatibleMissing(env: Vars): string | null {
  const name = has(env, "OPENAI_COMPATIBLE_PRESET") ? String(env.OPENAI_COMPATIBLE_PRESET).trim().toLowerCase() : null;
  if (name === null) {
    if (has(env, "OPENAI_COMPATIBLE_BASE_URL")) return null;
    return `set OPENAI_COMPATIBLE_BASE_URL, or OPENAI_COMPATIBLE_PRESET (${Object.keys(COMPATIBLE_PRESETS).join(", ")})`;
  }
  const preset = listCompatiblePresets(env).find((p) => p.name === name);
  if (!preset)
    return `OPENAI_COMPATIBLE_PRESET: unknown preset '${name}'; known: ${Object.keys(COMPATIBLE_PRESETS).join(", ")}`;
  return preset.available ? null : preset.note;
}

/** Every backend for the pickers: the built-ins, then those registered at run time (`registerBackend`). */
export function listBackends(envVars: Vars): BackendInfo[] {
  const builtIn = CATALOG.map((b) => {
    if (b.name === "sim") return { name: b.name, available: true, roles: b.roles, note: SIM_NOTE };
    const missing = b.missing(envVars);
    const found = b.name === "openai-compatible" ? "server configured" : "credentials found";
    return { name: b.name, available: missing === null, roles: b.roles, note: missing ?? found };
  });
  const registered = listBackendExtensions().map((e) => {
    const missing = e.missing?.(envVars) ?? null;
    const roles = e.roles ? [...e.roles] : BOTH;
    return { name: e.name, available: missing === null, roles, note: missing ?? e.note ?? "registered backend" };
  });
  return [...builtIn, ...registered];
}
