import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import { stopRunOf } from "../../engine/ports";
import { config, instantPolicy } from "../test-helpers";
import { createPolicyClient, type Transport } from "./client";

const req = (o: Partial<CompletionRequest> = {}): CompletionRequest => ({
  role: "optimizer",
  stage: "analyst",
  system: "sys",
  messages: [{ role: "user", content: "hello" }],
  maxTokens: 1000,
  ...o,
});

/** A transport answering from a script: an Error is thrown, a string answered (1M prompt + 1M completion tokens). */
function scripted(script: Array<string | Error | "hang">): Transport & { calls: number } {
  const t = {
    calls: 0,
    params: () => ({ p: 1 }),
    async send(_r: CompletionRequest, signal: AbortSignal) {
      const step = script[Math.min(t.calls, script.length - 1)]!;
      t.calls++;
      if (step === "hang") {
        return new Promise<never>((_, reject) =>
          signal.addEventListener("abort", () => reject(new OpenAI.APIUserAbortError())),
        );
      }
      if (step instanceof Error) throw step;
      return { text: step, usage: { promptTokens: 1_000_000, completionTokens: 1_000_000 } };
    },
  };
  return t;
}

const priced = { model: { price_table: { "openai:m": { inputPerMTok: 1, outputPerMTok: 2 } } } };
const http = (status: number, body: object = {}, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, body, undefined, new Headers(headers));

function client(transport: Transport, cfg = config(priced), rootDir?: string) {
  const { policy, waits } = instantPolicy(cfg, { rootDir });
  return {
    c: createPolicyClient({
      role: "optimizer",
      backend: "openai",
      model: "m",
      endpoint: `http://t/${Math.random()}`,
      transport,
      run: policy,
    }),
    policy,
    waits,
  };
}

describe("policy client", () => {
  it("answers, and records calls, tokens, latency and cost per stage", async () => {
    const { c } = client(scripted(["hi"]));
    const res = await c.complete(req());
    expect(res).toMatchObject({ text: "hi", cached: false, usage: { promptTokens: 1e6, completionTokens: 1e6 } });
    await c.complete(req({ stage: "merge" }));
    const s = c.stats!();
    expect(s).toMatchObject({ backend: "openai", model: "m" });
    expect(s.byStage.analyst).toMatchObject({
      calls: 1,
      promptTokens: 1e6,
      completionTokens: 1e6,
      costUsd: 3,
      retries: 0,
      cacheHits: 0,
    });
    expect(s.total).toMatchObject({ calls: 2, costUsd: 6 });
  });

  it("retries a 429 (honouring Retry-After) and a 500, counting the retries", async () => {
    const t = scripted([http(429, {}, { "retry-after": "3" }), http(500), "ok"]);
    const { c, waits } = client(t);
    expect((await c.complete(req())).text).toBe("ok");
    expect(t.calls).toBe(3);
    expect(waits[0]).toBe(3000);
    expect(c.stats!().byStage.analyst).toMatchObject({ calls: 1, retries: 2, errors: {} });
  });

  it("an exhausted quota fails once with stopRun fail — no retry storm", async () => {
    const t = scripted([
      http(429, { error: { code: "insufficient_quota", message: "You exceeded your current quota" } }),
    ]);
    const { c } = client(t);
    const err = await c.complete(req()).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("fail");
    expect(t.calls).toBe(1);
    expect(c.stats!().byStage.analyst).toMatchObject({ calls: 0, errors: { fatal: 1 }, retries: 0 });
  });

  it("a hung attempt times out as a transient error", async () => {
    const t = scripted(["hang"]);
    const { c } = client(t, config({ model: { ...priced.model, timeout_seconds: 0.05, max_retries: 1 } }));
    await expect(c.complete(req())).rejects.toMatchObject({
      kind: "transient",
      message: "openai: timed out after 0.05s",
    });
    expect(t.calls).toBe(2);
    expect(c.stats!().byStage.analyst!.errors).toEqual({ transient: 1 });
  });

  it("the run's signal cancels a call as aborted, without retries", async () => {
    const t = scripted(["hang"]);
    const { c } = client(t);
    const ac = new AbortController();
    const p = c.complete(req({ signal: ac.signal }));
    setTimeout(() => ac.abort(new Error("cancel")), 10);
    await expect(p).rejects.toMatchObject({ kind: "aborted" });
    expect(t.calls).toBe(1);
  });

  it("pauses the run when the budget cannot cover the next call, before calling the provider", async () => {
    const t = scripted(["ok"]);
    const { c, policy } = client(t, config({ ...priced, budget: { max_usd: 3.5 } }));
    await c.complete(req({ maxTokens: 10 })); // spends $3
    // 300k completion tokens at $2/M may cost $0.60: more than the $0.50 left.
    const err = await c.complete(req({ maxTokens: 300_000 })).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("pause");
    expect((err as Error).message).toMatch(/^budget exhausted: \$3\.00 of \$3\.50 spent/);
    expect(t.calls).toBe(1);
    expect(policy.budget.snapshot()).toMatchObject({ calls: 1, spentUsd: 3 });
  });

  it("max_calls pauses with the call count", async () => {
    const { c } = client(scripted(["ok"]), config({ ...priced, budget: { max_calls: 1 } }));
    await c.complete(req());
    await expect(c.complete(req())).rejects.toThrow("budget exhausted: 1 of 1 calls");
  });

  it("the cache answers an identical second call, reports the hit and the cost saved, and stores no errors", async () => {
    const root = mkdtempSync(join(tmpdir(), "cache-"));
    const t = scripted([http(500), "cached answer"]);
    const cfg = config({ model: { ...priced.model, cache: true, max_retries: 0 } });
    const { c } = client(t, cfg, root);
    await expect(c.complete(req())).rejects.toMatchObject({ kind: "transient" });
    expect(() => readdirSync(join(root, ".skillopt", "llm-cache"))).toThrow(); // nothing stored for an error
    expect((await c.complete(req())).cached).toBe(false);
    const hit = await c.complete(req());
    expect(hit).toMatchObject({ text: "cached answer", cached: true, usage: { promptTokens: 0, completionTokens: 0 } });
    expect(t.calls).toBe(2);
    const miss = await c.complete(req({ system: "other" }));
    expect(miss.cached).toBe(false);
    expect(c.stats!().byStage.analyst).toMatchObject({
      calls: 3,
      cacheHits: 1,
      costUsd: 6,
      costSavedUsd: 3,
      errors: { transient: 1 },
    });
  });

  it("an unknown price is unknown (null), never 0", async () => {
    const { c } = client(scripted(["ok"]), config());
    await c.complete(req());
    expect(c.stats!().total).toMatchObject({ calls: 1, costUsd: null, costSavedUsd: null });
  });
});
