/**
 * What a provider folder hands the registry: the transport (one raw SDK request), the endpoint it talks
 * to and a hint for authentication failures. The registry wraps it in the policy layer. Also the SDK
 * options every provider uses: the SDK's own retries off (retries are ours, counted and budgeted) and
 * its timeout a little past ours, as a backstop.
 */
import type { RunConfig } from "../contracts/run-config";
import type { CompletionRequest, Role } from "../engine/ports";
import type { TransportOptions, EnvVars } from "./settings";

/** A provider's answer. Any further fields it carries (an exec client's `trace`) reach the caller unchanged. */
export interface TransportAnswer {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
  /** The provider stopped the answer at the token limit. */
  truncated?: boolean;
}

/** One provider request through its SDK. Throws what the SDK throws; the policy classifies it. */
export interface Transport {
  send(req: CompletionRequest, signal: AbortSignal): Promise<TransportAnswer>;
  /** The request parameters actually sent that shape the answer (effort, thinking, temperature…), for the cache key. */
  params(req: CompletionRequest): Record<string, unknown>;
  /** Output tokens the provider may bill beyond `maxTokens` (an extended-thinking budget). */
  extraOutputTokens?: number;
}

export interface ProviderArgs {
  role: Role;
  config: RunConfig;
  /** Environment variables (callers pass `process.env`); the only source of secrets. */
  env: EnvVars;
  /** The role's model name (`model.optimizer` / `model.target`). */
  model: string;
  transport: TransportOptions;
  /** The raw backend name the user wrote for this role (e.g. "qwen"), for backends whose aliases imply a preset. */
  rawBackend: string;
}

export interface ProviderSetup {
  transport: Transport;
  endpoint: string;
  /** Appended to 401/403 errors, e.g. "check OPENAI_API_KEY". */
  authHint?: string;
  /** A hash of the API key (`keyIdOf`): the shared rate limit is per endpoint and key. */
  keyId?: string;
  /** False when the client must not be retried by the policy (the sim; exec CLIs retry empty answers themselves). */
  retries?: boolean;
  /** Per-attempt timeout override in seconds (0: none — the exec CLIs enforce their own). */
  timeoutSeconds?: number;
}

export type ProviderFactory = (args: ProviderArgs) => ProviderSetup;

/** SDK client options shared by every provider (`timeout_seconds: 0` = no timeout: a day, as far as the SDK knows). */
export function sdkOptions(t: TransportOptions): { maxRetries: 0; timeout: number } {
  return { maxRetries: 0, timeout: t.timeout_seconds > 0 ? Math.round(t.timeout_seconds * 1000) + 5000 : 86_400_000 };
}
