import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../contracts/events";
import { simRunPreset } from "../../runs/sim-harness";

describe("officeqa sample preset on the simulated model", () => {
  it("improves the best selection score, rejects at least one step, and really uses the tools", async () => {
    const { summary, history, events, store } = await simRunPreset("configs/officeqa/sample.yaml");
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    expect(summary.test_hard as number).toBeGreaterThan(summary.baseline_test_hard as number);
    expect(events.some((e) => e.type === "slowUpdateApplied" && e.content)).toBe(true);
    expect(events.some((e) => e.type === "metaSkillUpdated" && e.action === "write_meta_skill")).toBe(true);
    const rollouts = events.filter(
      (e): e is Extract<EngineEvent, { type: "rolloutCompleted" }> => e.type === "rolloutCompleted",
    );
    expect(rollouts.length).toBeGreaterThan(0);
    // The simulated agent grepped and read real documents before answering (three rounds per item).
    const rows = [...store.rows.values()].flat();
    const read = rows.filter((r) =>
      r.conversation.some((c) => typeof c === "object" && String(c.content).includes('<tool_result name="read"')),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(read.length / rows.length).toBeGreaterThan(0.9);
    expect(rows.filter((r) => r.status !== "ok")).toEqual([]);
  }, 60_000);
});
