import { describe, expect, it } from "vitest";
import type { RunContext } from "./context";
import { MemoryCheckpointStore } from "./memory-store";
import type { Outcomes } from "./outcomes";
import { freshState, loadState, recallSelOutcomes, saveState, selOutcomesKey } from "./state";

const ctxOf = (store: MemoryCheckpointStore) => ({ store, usage: { snapshot: () => ({}) } }) as unknown as RunContext;
const outcomes = (hard: number): Outcomes => ({ v1: [hard, hard], v2: "error" });

describe("the selection outcomes held in memory", () => {
  it("after a commit only the current and best skills' stay; any other is read back from its key", async () => {
    const store = new MemoryCheckpointStore();
    const ctx = ctxOf(store);
    const st = freshState("# Skill\n");
    // One scored skill per step: without a bound, memory would hold every one of them for the whole run.
    for (let step = 1; step <= 20; step++) {
      const hash = `h${step}`;
      st.selCache[hash] = [step / 20, step / 20];
      st.selOutcomes[hash] = outcomes(step / 20);
      if (step % 7 === 1) st.bestRef = hash;
      st.currentRef = hash;
      st.lastCompletedStep = step;
      await saveState(ctx, st);
      expect(Object.keys(st.selOutcomes).sort()).toEqual([...new Set([st.bestRef, st.currentRef])].sort());
    }
    expect(st.bestRef).toBe("h15");
    expect(await store.getJson(selOutcomesKey("h3"))).toEqual(outcomes(3 / 20));
    expect(await recallSelOutcomes(ctx, st, "h3")).toEqual(outcomes(3 / 20));
    expect(st.selOutcomes.h3).toEqual(outcomes(3 / 20));
    expect(await recallSelOutcomes(ctx, st, "not-cached")).toBeNull();
    const back = (await loadState(ctx))!;
    expect(back.selOutcomes).toEqual({ h15: outcomes(15 / 20), h20: outcomes(1) });
    expect(await recallSelOutcomes(ctx, back, "h7")).toEqual(outcomes(7 / 20));
  });

  it("a skill cached without outcomes (a force-injected slow update) recalls none", async () => {
    const store = new MemoryCheckpointStore();
    const st = freshState("# Skill\n");
    st.selCache.injected = [0.5, 0];
    expect(await recallSelOutcomes(ctxOf(store), st, "injected")).toBeNull();
  });
});
