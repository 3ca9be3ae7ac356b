/**
 * The `openai` backend: the OpenAI API through the official SDK. Chat Completions by default; the
 * Responses API when `openai_api_style: responses`, or on `auto` (the default) for the Codex and pro
 * models the original routed there. `reasoning_effort` is sent only to models that accept that value.
 *
 * Settings (config key > role env var > shared env var > default):
 *   key       OPTIMIZER_OPENAI_API_KEY / TARGET_OPENAI_API_KEY > OPENAI_API_KEY (required)
 *   base URL  model.[<role>_]openai_base_url > <ROLE>_OPENAI_BASE_URL > OPENAI_BASE_URL > https://api.openai.com/v1
 *   style     model.[<role>_]openai_api_style: auto | chat | responses
 */
import OpenAI from "openai";
import type { Role } from "../../engine/ports";
import { AppError } from "../../errors";
import type { ModelSection } from "../settings";
import { keyIdOf } from "../policy/rate-limit";
import { checkHttpUrl, requireSecret, roleEnvNames, stringSetting, type EnvVars } from "../settings";
import { sdkOptions, type ProviderFactory } from "../provider";
import { chatTransport } from "./chat";
import { acceptedEfforts, prefersResponses } from "./models";
import { responsesTransport } from "./responses";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const API_STYLES = ["auto", "chat", "responses"] as const;
export type ApiStyle = (typeof API_STYLES)[number];

/** `model.[<role>_]openai_api_style` (shared by openai and azure-openai). */
export function apiStyleOf(model: ModelSection, role: Role, env: EnvVars): ApiStyle {
  const found = stringSetting(model, role, "openai_api_style", [], env);
  const v = (found?.value ?? "auto").toLowerCase();
  if (!(API_STYLES as readonly string[]).includes(v)) {
    throw new AppError(
      "INVALID_REQUEST",
      `${found!.source}: expected one of ${API_STYLES.join(", ")}, got '${found!.value}'`,
      { field: found!.source },
    );
  }
  return v as ApiStyle;
}

/** Whether the role's calls go through the Responses API. */
export function usesResponses(style: ApiStyle, model: string): boolean {
  return style === "responses" || (style === "auto" && prefersResponses(model));
}

export interface OpenAISettings {
  apiKey: string;
  keyVar: string;
  baseURL: string;
  style: ApiStyle;
}

export function openaiSettings(model: ModelSection, role: Role, env: EnvVars): OpenAISettings {
  const key = requireSecret(env, roleEnvNames(role, "OPENAI_API_KEY"), { role, backend: "openai" });
  const base = stringSetting(model, role, "openai_base_url", roleEnvNames(role, "OPENAI_BASE_URL"), env);
  return {
    apiKey: key.value,
    keyVar: key.source,
    baseURL: base ? checkHttpUrl(base.value, base.source) : OPENAI_DEFAULT_BASE_URL,
    style: apiStyleOf(model, role, env),
  };
}

/**
 * The transport an OpenAI-API client uses for `model`: the Responses API when the style asks for it (or
 * the model prefers it), else Chat Completions with max_completion_tokens and reasoning_effort.
 * `capabilitiesOf` names the model whose capabilities apply when `model` is only an address.
 */
export function openaiTransport(opts: {
  client: OpenAI;
  backend: string;
  model: string;
  style: ApiStyle;
  capabilitiesOf?: string;
}) {
  const { client, backend, model } = opts;
  const known = opts.capabilitiesOf ?? model; // Azure sends the deployment but the model name decides
  const efforts = acceptedEfforts(known);
  return usesResponses(opts.style, known)
    ? responsesTransport({ client, backend, model, efforts })
    : chatTransport({
        client,
        backend,
        model,
        efforts,
        policy: { tokenField: "max_completion_tokens", effort: "reasoning_effort", temperature: false },
      });
}

export const createOpenAIProvider: ProviderFactory = (a) => {
  const s = openaiSettings(a.config.model, a.role, a.env);
  const client = new OpenAI({
    apiKey: s.apiKey,
    baseURL: s.baseURL,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    ...sdkOptions(a.transport),
  });
  const transport = openaiTransport({ client, backend: "openai", model: a.model, style: s.style });
  return { transport, endpoint: s.baseURL, authHint: `check ${s.keyVar}`, keyId: keyIdOf(s.apiKey) };
};
