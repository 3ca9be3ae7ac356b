/**
 * The `openai-compatible` backend: any server speaking OpenAI Chat Completions, through the openai SDK,
 * with presets for Qwen (DashScope), MiniMax, vLLM, Ollama, LM Studio and OpenRouter. A preset sets the
 * base URL, the key variable and the parameters the server accepts; without one, the base URL must be
 * given. The aliases `qwen` / `minimax` (the original's qwen_chat / minimax_chat) imply their preset.
 *
 * Settings (config key > role env var > shared env var > preset default):
 *   preset       model.[<role>_]compatible_preset > <ROLE>_OPENAI_COMPATIBLE_PRESET > OPENAI_COMPATIBLE_PRESET > alias
 *   base URL     model.[<role>_]compatible_base_url > <ROLE>_OPENAI_COMPATIBLE_BASE_URL > OPENAI_COMPATIBLE_BASE_URL > preset's
 *   key          <ROLE>_OPENAI_COMPATIBLE_API_KEY > <ROLE>_<preset var> > <preset var> > OPENAI_COMPATIBLE_API_KEY
 *                (required when the preset has a key variable)
 *   temperature  model.[<role>_]compatible_temperature > <ROLE>_OPENAI_COMPATIBLE_TEMPERATURE > OPENAI_COMPATIBLE_TEMPERATURE
 */
import OpenAI from "openai";
import type { Role } from "../../engine/ports";
import { AppError } from "../../errors";
import { chatTransport } from "../openai/chat";
import { keyIdOf } from "../policy/rate-limit";
import { sdkOptions, type ProviderFactory } from "../provider";
import { checkHttpUrl, fromEnv, roleEnvNames, stringSetting, type EnvVars, type ModelSection } from "../settings";
import {
  COMPATIBLE_PRESETS,
  CUSTOM_PARAMS,
  PRESET_ALIASES,
  PRESET_NAMES,
  type CompatibleParams,
  type CompatiblePreset,
} from "./presets";

export interface CompatibleSettings {
  preset: CompatiblePreset | null;
  baseURL: string;
  apiKey: string | null;
  keyVar: string | null;
  params: CompatibleParams;
  temperature: number | null;
}

/** The preset, and whether it was only implied by a backend alias (`qwen`), which a request may choose. */
function presetOf(
  model: ModelSection,
  role: Role,
  env: EnvVars,
  rawBackend: string,
): { preset: CompatiblePreset | null; byAlias: boolean } {
  const found = stringSetting(model, role, "compatible_preset", roleEnvNames(role, "OPENAI_COMPATIBLE_PRESET"), env);
  const name = (found?.value ?? PRESET_ALIASES[rawBackend.trim().toLowerCase()] ?? "").toLowerCase();
  if (!name || name === "custom") return { preset: null, byAlias: false };
  const preset = COMPATIBLE_PRESETS[name];
  if (!preset) {
    const field = found?.source ?? "model.compatible_preset";
    throw new AppError(
      "INVALID_REQUEST",
      `${field}: unknown preset '${found?.value}'; known: ${PRESET_NAMES.join(", ")} (or custom)`,
      { field },
    );
  }
  return { preset, byAlias: found === null };
}

/**
 * The API key: the role's generic variable, the preset's own variables, then OPENAI_COMPATIBLE_API_KEY.
 * The generic keys belong to the server the operator configured; they are not sent to a vendor reached
 * only because the backend was named by its alias (`qwen`, `minimax`), which a dashboard request may do.
 */
function keyOf(
  env: EnvVars,
  role: Role,
  preset: CompatiblePreset | null,
  genericAllowed = true,
): { value: string; source: string } | null {
  const R = role.toUpperCase();
  const generic = genericAllowed ? [`${R}_OPENAI_COMPATIBLE_API_KEY`] : [];
  const names = preset?.keyVar
    ? [...generic, `${R}_${preset.keyVar}`, preset.keyVar, ...(genericAllowed ? ["OPENAI_COMPATIBLE_API_KEY"] : [])]
    : [`${R}_OPENAI_COMPATIBLE_API_KEY`, "OPENAI_COMPATIBLE_API_KEY"];
  const hit = fromEnv(env, names);
  if (hit || !preset?.keyVar) return hit;
  throw new AppError(
    "INVALID_REQUEST",
    `model.${role}_backend: the ${role} uses backend 'openai-compatible' with preset '${preset.name}', which needs an API key: set ${preset.keyVar} (${genericAllowed ? "or OPENAI_COMPATIBLE_API_KEY; " : ""}${R}_${preset.keyVar} for the ${role} only)`,
    { field: `model.${role}_backend` },
  );
}

function temperatureOf(model: ModelSection, role: Role, env: EnvVars): number | null {
  const found = stringSetting(
    model,
    role,
    "compatible_temperature",
    roleEnvNames(role, "OPENAI_COMPATIBLE_TEMPERATURE"),
    env,
  );
  if (!found) return null;
  const t = Number(found.value);
  if (!Number.isFinite(t) || t < 0 || t > 2) {
    throw new AppError("INVALID_REQUEST", `${found.source}: expected a number from 0 to 2, got '${found.value}'`, {
      field: found.source,
    });
  }
  return t;
}

export function compatibleSettings(model: ModelSection, role: Role, env: EnvVars, rawBackend = ""): CompatibleSettings {
  const { preset, byAlias } = presetOf(model, role, env, rawBackend);
  const base = stringSetting(model, role, "compatible_base_url", roleEnvNames(role, "OPENAI_COMPATIBLE_BASE_URL"), env);
  if (!base && !preset) {
    throw new AppError(
      "INVALID_REQUEST",
      `model.${role}_backend: backend 'openai-compatible' needs a server: set model.compatible_base_url or OPENAI_COMPATIBLE_BASE_URL, or choose model.compatible_preset (${PRESET_NAMES.join(", ")})`,
      { field: "model.compatible_base_url" },
    );
  }
  const key = keyOf(env, role, preset, !byAlias || base !== null);
  return {
    preset,
    baseURL: base ? checkHttpUrl(base.value, base.source) : preset!.baseURL,
    apiKey: key?.value ?? null,
    keyVar: key?.source ?? preset?.keyVar ?? null,
    params: preset?.params ?? CUSTOM_PARAMS,
    temperature: temperatureOf(model, role, env),
  };
}

export const createCompatibleProvider: ProviderFactory = (a) => {
  const s = compatibleSettings(a.config.model, a.role, a.env, a.rawBackend);
  const client = new OpenAI({
    // Local servers take no key, but the SDK requires one; they ignore the placeholder.
    apiKey: s.apiKey ?? "no-key",
    baseURL: s.baseURL,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    ...sdkOptions(a.transport),
  });
  const { efforts, ...policy } = s.params;
  const transport = chatTransport({
    client,
    backend: "openai-compatible",
    model: a.model,
    policy,
    efforts,
    temperature: s.temperature,
  });
  return {
    transport,
    endpoint: s.baseURL,
    authHint: s.keyVar ? `check ${s.keyVar}` : undefined,
    keyId: keyIdOf(s.apiKey),
  };
};
