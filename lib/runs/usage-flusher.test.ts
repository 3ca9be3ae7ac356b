import { describe, expect, it } from "vitest";
import type { BackendStats, UsageCounters } from "../engine/ports";
import { emptyCounters } from "../backends/policy/stats";
import { UsageFlusher } from "./usage-flusher";

const counters = (p: Partial<UsageCounters>): UsageCounters => ({ ...emptyCounters(true), ...p });

describe("UsageFlusher", () => {
  it("returns only what changed since the previous take, per role and stage", () => {
    let stats: BackendStats = {
      backend: "openai",
      model: "m",
      byStage: { analyst: counters({ calls: 2, retries: 1, errors: { rate_limited: 1 }, costUsd: 0.5 }) },
      total: counters({}),
    };
    const f = new UsageFlusher(() => ({ optimizer: stats }));
    expect(f.take()).toEqual([
      {
        role: "optimizer",
        stage: "analyst",
        backend: "openai",
        model: "m",
        counters: counters({ calls: 2, retries: 1, errors: { rate_limited: 1 }, costUsd: 0.5 }),
      },
    ]);
    expect(f.take()).toEqual([]);
    stats = {
      ...stats,
      byStage: {
        analyst: counters({ calls: 5, retries: 1, errors: { rate_limited: 3, transient: 1 }, costUsd: 1.25 }),
      },
    };
    expect(f.take()[0]!.counters).toEqual(
      counters({ calls: 3, errors: { rate_limited: 2, transient: 1 }, costUsd: 0.75 }),
    );
  });

  it("keeps an unknown cost unknown", () => {
    const stats: BackendStats = {
      backend: "openai-compatible",
      model: "m",
      byStage: { rollout: counters({ calls: 1, costUsd: null, costSavedUsd: null }) },
      total: counters({}),
    };
    const f = new UsageFlusher(() => ({ target: stats }));
    expect(f.take()[0]!.counters.costUsd).toBeNull();
  });
});
