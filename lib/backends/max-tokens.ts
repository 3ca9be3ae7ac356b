/**
 * `model.max_tokens` (`model.optimizer_max_tokens` / `model.target_max_tokens` for one role): the most
 * output tokens a request of that role may ask for; larger requests are lowered to it. The
 * openai-compatible backend defaults to the original's cap of 8000 (its qwen, minimax and
 * openai-compatible clients all cap there, also readable from `<ROLE>_OPENAI_COMPATIBLE_MAX_TOKENS` /
 * `OPENAI_COMPATIBLE_MAX_TOKENS`), so a server with a lower output limit does not reject our 16k/64k
 * requests. Other backends have no cap unless one is set.
 */
import type { Role } from "../engine/ports";
import { AppError } from "../errors";
import type { Transport } from "./policy/client";
import { fromConfig, fromEnv, roleEnvNames, type EnvVars, type ModelSection } from "./settings";

/** The original's default output cap of its OpenAI-compatible, Qwen and MiniMax clients. */
export const COMPATIBLE_DEFAULT_MAX_TOKENS = 8000;

function parseCap(value: unknown, source: string): number {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new AppError(
      "INVALID_REQUEST",
      `${source}: expected a whole number of tokens of at least 1, got ${JSON.stringify(value)}`,
      { field: source },
    );
  }
  return n;
}

/** The output-token cap of `role` on `backend`, or null for none. */
export function maxTokensCap(model: ModelSection, role: Role, backend: string, env: EnvVars): number | null {
  const c = fromConfig(model, role, "max_tokens");
  if (c) return parseCap(c.value, c.field);
  if (backend !== "openai-compatible") return null;
  const e = fromEnv(env, roleEnvNames(role, "OPENAI_COMPATIBLE_MAX_TOKENS"));
  return e ? parseCap(e.value, e.source) : COMPATIBLE_DEFAULT_MAX_TOKENS;
}

/** `transport` with every request's `maxTokens` lowered to `cap` (unchanged when cap is null). */
export function capTransport(transport: Transport, cap: number | null): Transport {
  if (cap === null) return transport;
  const capped = <R extends { maxTokens: number }>(req: R): R =>
    req.maxTokens > cap ? { ...req, maxTokens: cap } : req;
  return {
    ...transport,
    params: (req) => transport.params(capped(req)),
    send: (req, signal) => transport.send(capped(req), signal),
  };
}
