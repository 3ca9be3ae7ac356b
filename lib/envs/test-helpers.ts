/**
 * Builders shared by the lib/envs unit tests: a parsed run config and a scripted fake target client.
 * Only tests import this file.
 */
import { RunConfigSchema, type RunConfig, type RunConfigInput } from "../contracts/run-config";
import type { CompletionRequest, CompletionResult, ModelClient } from "../engine/ports";

/** A fully defaulted run config with the given `env` (and optional other) overrides. */
export function buildRunConfig(env: Record<string, unknown> = {}, rest: Omit<RunConfigInput, "env"> = {}): RunConfig {
  return RunConfigSchema.parse({ ...rest, env: { name: "searchqa", ...env } });
}

/** What a scripted reply may be: text, an error to throw, or "hang" (never settles unless aborted). */
export type FakeReply = string | Error | "hang" | "hang-ignoring-signal";

/** A fake target that answers from `script(request, callIndex)` and records its requests. */
export function fakeClient(script: (req: CompletionRequest, call: number) => FakeReply): ModelClient & {
  calls: CompletionRequest[];
} {
  const calls: CompletionRequest[] = [];
  return {
    backend: "fake",
    model: "fake-target",
    calls,
    complete(req: CompletionRequest): Promise<CompletionResult> {
      calls.push(req);
      const reply = script(req, calls.length - 1);
      if (reply instanceof Error) return Promise.reject(reply);
      if (reply === "hang-ignoring-signal") return new Promise<CompletionResult>(() => undefined);
      if (reply === "hang") {
        return new Promise<CompletionResult>((_, reject) => {
          req.signal?.addEventListener("abort", () => reject(new Error("aborted by signal")), { once: true });
        });
      }
      return Promise.resolve({
        text: reply,
        usage: { promptTokens: 100, completionTokens: 10 },
        latencyMs: 5,
        cached: false,
      });
    },
  };
}
