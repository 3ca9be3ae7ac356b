import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { skillHash } from "./scoring";
import { testConfig, testDeps } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";

type Of<T extends EngineEvent["type"]> = Extract<EngineEvent, { type: T }>;

async function run(gated: boolean) {
  const deps = testDeps({
    optimizer: wordOptimizer(),
    config: testConfig({
      train: { num_epochs: 2, batch_size: 4 },
      optimizer: { use_slow_update: true, slow_update_samples: 4, slow_update_gate_with_selection: gated },
    }),
  });
  await runTraining(deps);
  const slow = deps.eventsSeen.filter((e): e is Of<"slowUpdateApplied"> => e.type === "slowUpdateApplied");
  return { deps, slow };
}

describe("slow-update gate: per-item rows", () => {
  it("a gated slow update's event carries its candidate's per-item selection results, like a step's", async () => {
    const { deps, slow } = await run(true);
    const epoch2 = slow.find((e) => e.epoch === 2)!;
    expect(epoch2.action).toMatch(/^(accept|accept_new_best|reject)$/);
    const candidate = await deps.store.getText("slow_update/epoch_02/candidate_skill.md");
    expect(epoch2.gateScored).toBeDefined();
    expect(epoch2.gateScored!.candidateHash).toBe(skillHash(candidate!));
    expect(epoch2.gateScored!.results.map((r) => r.id).sort()).toEqual(deps.splits.val.map((i) => i.id).sort());
    // The rows are the ones the gate's score was computed from.
    const hard = epoch2.gateScored!.results.reduce((n, r) => n + r.hard, 0) / epoch2.gateScored!.results.length;
    expect(hard).toBeCloseTo(epoch2.selectionHard!, 9);
    // Epoch 1 only injects the placeholder block: nothing was scored.
    expect(slow.find((e) => e.epoch === 1)!.gateScored).toBeUndefined();
  });

  it("a forced slow update (no gate) scores nothing and carries no rows", async () => {
    const { slow } = await run(false);
    expect(slow.find((e) => e.epoch === 2)!.action).toBe("force_accept");
    expect(slow.every((e) => e.gateScored === undefined)).toBe(true);
  });
});
