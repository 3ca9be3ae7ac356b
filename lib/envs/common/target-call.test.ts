import { describe, expect, it } from "vitest";
import type { CompletionRequest, CompletionResult, ModelClient } from "../../engine/ports";
import { buildRunConfig, fakeClient } from "../test-helpers";
import { callRolloutTarget, callTarget, truncationRetryLimit } from "./target-call";

const failing = (err: unknown): ModelClient => ({
  backend: "x",
  model: "m",
  complete: async () => Promise.reject(err),
});
const request = { role: "target" as const, stage: "rollout", system: "s", messages: [], maxTokens: 10 };

describe("callTarget", () => {
  it("turns an ordinary model failure into an error outcome", async () => {
    await expect(callTarget({ client: failing(new Error("HTTP 500")), request, timeoutSec: 0 })).resolves.toEqual({
      ok: false,
      status: "error",
      failReason: "error: HTTP 500",
    });
  });

  it("rethrows errors that end or pause the run, so the engine sees them", async () => {
    const pause = Object.assign(new Error("budget exhausted: 3 of 3 calls"), { stopRun: "pause" });
    const fail = Object.assign(new Error("quota exhausted"), { stopRun: "fail" });
    await expect(callTarget({ client: failing(pause), request, timeoutSec: 0 })).rejects.toBe(pause);
    await expect(callTarget({ client: failing(fail), request, timeoutSec: 0 })).rejects.toBe(fail);
  });

  it("a signal aborted before the call: the call's own rejection is not left unhandled", async () => {
    const run = new AbortController();
    run.abort(new Error("stopped"));
    let settled = false;
    const client: ModelClient = {
      backend: "x",
      model: "m",
      complete: () =>
        new Promise((_, reject) =>
          setTimeout(() => {
            settled = true;
            reject(new Error("call cancelled"));
          }, 5),
        ),
    };
    await expect(callTarget({ client, request, timeoutSec: 0, signal: run.signal })).rejects.toThrow("stopped");
    await new Promise((r) => setTimeout(r, 20)); // vitest fails the test on an unhandled rejection
    expect(settled).toBe(true);
  });

  describe("an answer cut off by the token limit", () => {
    /** Answers `reply(maxTokens)`; cut off (truncated) while the limit is below `needs`. */
    function limited(needs: number, reply = (n: number) => `answer at ${n}`) {
      const seen: number[] = [];
      const client: ModelClient = {
        backend: "x",
        model: "m",
        async complete(req: CompletionRequest): Promise<CompletionResult> {
          seen.push(req.maxTokens);
          return {
            text: reply(req.maxTokens),
            usage: { promptTokens: 100, completionTokens: Math.min(req.maxTokens, needs) },
            latencyMs: 5,
            cached: false,
            truncated: req.maxTokens < needs,
          };
        },
      };
      return { client, seen };
    }

    it("is asked again once with twice the limit, and that answer counts, with both calls' usage", async () => {
      const { client, seen } = limited(15);
      const out = await callTarget({ client, request, timeoutSec: 0 });
      expect(seen).toEqual([10, 20]);
      expect(out).toEqual({
        ok: true,
        result: {
          text: "answer at 20",
          usage: { promptTokens: 200, completionTokens: 25 },
          latencyMs: 10,
          cached: false,
          truncated: false,
        },
      });
    });

    it("is truncated when the retry is cut off again", async () => {
      const { client, seen } = limited(50);
      const out = await callTarget({ client, request, timeoutSec: 0 });
      expect(seen).toEqual([10, 20]);
      expect(out).toEqual({
        ok: false,
        status: "truncated",
        failReason: "truncated: the answer was cut off at the 10-token limit, and again at 20 tokens",
      });
    });

    it("retries no higher than env.truncation_retry_max_tokens, and not at all when that is not above the limit", async () => {
      const capped = limited(12);
      await expect(
        callTarget({ client: capped.client, request, timeoutSec: 0, retryMaxTokens: 12 }),
      ).resolves.toMatchObject({ ok: true });
      expect(capped.seen).toEqual([10, 12]);
      const off = limited(12);
      const out = await callTarget({ client: off.client, request, timeoutSec: 0, retryMaxTokens: 10 });
      expect(off.seen).toEqual([10]);
      expect(out).toEqual({
        ok: false,
        status: "truncated",
        failReason:
          "truncated: the answer was cut off at the 10-token limit (no retry: env.truncation_retry_max_tokens is 10)",
      });
    });

    it("is truncated when the model refuses the larger limit", async () => {
      let n = 0;
      const client: ModelClient = {
        backend: "x",
        model: "m",
        complete: async (req) => {
          if (++n > 1) throw new Error(`openai: request refused (HTTP 400): max_tokens ${req.maxTokens} is too large`);
          return {
            text: "half",
            usage: { promptTokens: 1, completionTokens: 10 },
            latencyMs: 1,
            cached: false,
            truncated: true,
          };
        },
      };
      const out = await callTarget({ client, request, timeoutSec: 0 });
      expect(out).toMatchObject({ ok: false, status: "truncated" });
      expect((out as { failReason: string }).failReason).toBe(
        "truncated: the answer was cut off at the 10-token limit; the retry at 20 tokens failed (error: openai: request refused (HTTP 400): max_tokens 20 is too large)",
      );
    });

    it("still lets errors that stop the run through on the retry", async () => {
      const pause = Object.assign(new Error("budget exhausted: 1 of 1 calls"), { stopRun: "pause" });
      let n = 0;
      const client: ModelClient = {
        backend: "x",
        model: "m",
        complete: async () => {
          if (++n > 1) throw pause;
          return {
            text: "half",
            usage: { promptTokens: 1, completionTokens: 10 },
            latencyMs: 1,
            cached: false,
            truncated: true,
          };
        },
      };
      await expect(callTarget({ client, request, timeoutSec: 0 })).rejects.toBe(pause);
    });

    it("an answer within the limit is never retried", async () => {
      const { client, seen } = limited(5);
      await expect(callTarget({ client, request, timeoutSec: 0 })).resolves.toMatchObject({
        ok: true,
        result: { text: "answer at 10" },
      });
      expect(seen).toEqual([10]);
    });

    it("doubles the limit within the cap", () => {
      expect(truncationRetryLimit(16384, null)).toBe(32768);
      expect(truncationRetryLimit(16384, 20000)).toBe(20000);
      expect(truncationRetryLimit(16384, 100000)).toBe(32768);
    });
  });
});

describe("callRolloutTarget", () => {
  it("asks with the run's token limit and reasoning effort, as a rollout call of the target", async () => {
    const client = fakeClient(() => "ok");
    const config = buildRunConfig({ max_completion_tokens: 321 }, { model: { reasoning_effort: "low" } });
    const out = await callRolloutTarget({ client, config, system: "sys", messages: [{ role: "user", content: "q" }] });
    expect(out.ok).toBe(true);
    expect(client.calls[0]).toMatchObject({
      role: "target",
      stage: "rollout",
      system: "sys",
      messages: [{ role: "user", content: "q" }],
      maxTokens: 321,
      reasoningEffort: "low",
    });
  });

  it("an empty reasoning effort is sent as none (null); the run's per-call deadline applies", async () => {
    const client = fakeClient(() => "hang");
    const config = buildRunConfig({ exec_timeout: 1 }, { model: { reasoning_effort: "" } });
    const out = await callRolloutTarget({ client, config, system: "s", messages: [] });
    expect(client.calls[0]!.reasoningEffort).toBeNull();
    expect(out).toEqual({ ok: false, status: "timeout", failReason: "timeout: no answer within 1s" });
  });
});
