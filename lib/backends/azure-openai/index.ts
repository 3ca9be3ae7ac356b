/**
 * The `azure-openai` backend: an Azure OpenAI resource through the openai SDK's AzureOpenAI client
 * (endpoint, API version, deployment). Authentication is an API key or, without one, a Microsoft
 * Entra ID (Azure AD) bearer token taken from the environment. Chat Completions by default; the
 * Responses API under the same `openai_api_style` rule as the openai backend.
 *
 * Settings (config key > role env var > shared env var > default):
 *   endpoint     model.[<role>_]azure_openai_endpoint > <ROLE>_AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_<ROLE>_ENDPOINT > AZURE_OPENAI_ENDPOINT (required)
 *   api version  model.[<role>_]azure_openai_api_version > <ROLE>_AZURE_OPENAI_API_VERSION > AZURE_OPENAI_API_VERSION > OPENAI_API_VERSION > 2024-12-01-preview
 *   deployment   model.[<role>_]azure_openai_deployment > <ROLE>_DEPLOYMENT > <ROLE>_AZURE_OPENAI_DEPLOYMENT > the role's model name
 *   key          <ROLE>_AZURE_OPENAI_API_KEY / AZURE_OPENAI_<ROLE>_API_KEY > AZURE_OPENAI_API_KEY,
 *                else token <ROLE>_AZURE_OPENAI_AD_TOKEN > AZURE_OPENAI_AD_TOKEN
 */
import { AzureOpenAI } from "openai";
import type { Role } from "../../engine/ports";
import { AppError } from "../../errors";
import { apiStyleOf, openaiTransport, type ApiStyle } from "../openai/index";
import { keyIdOf } from "../policy/rate-limit";
import { sdkOptions, type ProviderFactory } from "../provider";
import {
  checkHttpUrl,
  fromEnv,
  requireSecret,
  roleEnvNames,
  stringSetting,
  type EnvVars,
  type ModelSection,
} from "../settings";

export const AZURE_DEFAULT_API_VERSION = "2024-12-01-preview";

export interface AzureSettings {
  endpoint: string;
  apiVersion: string;
  deployment: string;
  auth: { kind: "key"; value: string; source: string } | { kind: "token"; value: string; source: string };
  style: ApiStyle;
}

export function azureSettings(model: ModelSection, role: Role, env: EnvVars, modelName: string): AzureSettings {
  const R = role.toUpperCase();
  const ep = stringSetting(
    model,
    role,
    "azure_openai_endpoint",
    roleEnvNames(role, "AZURE_OPENAI_ENDPOINT", [`AZURE_OPENAI_${R}_ENDPOINT`]),
    env,
  );
  if (!ep) {
    throw new AppError(
      "INVALID_REQUEST",
      `model.${role}_backend: the ${role} uses backend 'azure-openai', which needs the resource endpoint: set AZURE_OPENAI_ENDPOINT (or model.azure_openai_endpoint)`,
      { field: `model.${role}_backend` },
    );
  }
  const version = stringSetting(
    model,
    role,
    "azure_openai_api_version",
    [`${R}_AZURE_OPENAI_API_VERSION`, "AZURE_OPENAI_API_VERSION", "OPENAI_API_VERSION"],
    env,
  );
  const deployment = stringSetting(
    model,
    role,
    "azure_openai_deployment",
    [`${R}_DEPLOYMENT`, `${R}_AZURE_OPENAI_DEPLOYMENT`],
    env,
  );
  const keyNames = roleEnvNames(role, "AZURE_OPENAI_API_KEY", [`AZURE_OPENAI_${R}_API_KEY`]);
  const key = fromEnv(env, keyNames);
  const auth = key
    ? { kind: "key" as const, ...key }
    : {
        kind: "token" as const,
        ...requireSecret(env, [...roleEnvNames(role, "AZURE_OPENAI_AD_TOKEN")], {
          role,
          backend: "azure-openai",
          what: "an API key (AZURE_OPENAI_API_KEY) or an Entra ID token",
        }),
      };
  return {
    endpoint: checkHttpUrl(ep.value, ep.source),
    apiVersion: version?.value ?? AZURE_DEFAULT_API_VERSION,
    deployment: deployment?.value ?? modelName,
    auth,
    style: apiStyleOf(model, role, env),
  };
}

export const createAzureOpenAIProvider: ProviderFactory = (a) => {
  const s = azureSettings(a.config.model, a.role, a.env, a.model);
  const token = s.auth.kind === "token" ? s.auth.value : null;
  const client = new AzureOpenAI({
    // baseURL rather than `endpoint`, so the SDK never mixes in OPENAI_BASE_URL from the process environment.
    baseURL: `${s.endpoint}/openai`,
    apiVersion: s.apiVersion,
    deployment: s.deployment,
    // null (not undefined) keeps the SDK from reading AZURE_OPENAI_API_KEY itself when a token is used.
    apiKey: (token === null ? s.auth.value : null) as string | undefined,
    ...(token === null ? {} : { azureADTokenProvider: async () => token }),
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    ...sdkOptions(a.transport),
  });
  const transport = openaiTransport({
    client,
    backend: "azure-openai",
    model: s.deployment,
    style: s.style,
    capabilitiesOf: a.model,
  });
  return {
    transport,
    endpoint: `${s.endpoint}/openai/deployments/${s.deployment}`,
    authHint: `check ${s.auth.source}`,
    // The shared rate limit is per deployment and credential (an API key or an Entra ID token).
    keyId: keyIdOf(s.auth.value),
  };
};
