import { describe, expect, it } from "vitest";
import type { ModelClient } from "../../engine/ports";
import { callTarget } from "./target-call";

const failing = (err: unknown): ModelClient => ({ backend: "x", model: "m", complete: async () => Promise.reject(err) });
const request = { role: "target" as const, stage: "rollout", system: "s", messages: [], maxTokens: 10 };

describe("callTarget", () => {
  it("turns an ordinary model failure into an error outcome", async () => {
    await expect(callTarget({ client: failing(new Error("HTTP 500")), request, timeoutSec: 0 })).resolves.toEqual({ ok: false, status: "error", failReason: "error: HTTP 500" });
  });

  it("rethrows errors that end or pause the run, so the engine sees them", async () => {
    const pause = Object.assign(new Error("budget exhausted: 3 of 3 calls"), { stopRun: "pause" });
    const fail = Object.assign(new Error("quota exhausted"), { stopRun: "fail" });
    await expect(callTarget({ client: failing(pause), request, timeoutSec: 0 })).rejects.toBe(pause);
    await expect(callTarget({ client: failing(fail), request, timeoutSec: 0 })).rejects.toBe(fail);
  });
});
