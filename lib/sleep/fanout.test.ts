import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MockBackend } from "./backend/mock";
import { PendingCalls, type ReflectInput } from "./backend/types";
import { consolidate } from "./consolidate";
import { consolidateGroups } from "./fanout";
import { PromptRegistry } from "./prompts";
import { removeTempDirs, sandbox, writeText } from "./test-helpers";
import { makeTask, type EditRecord, type TaskRecord } from "./types";

afterAll(removeTempDirs);
const prompts = new PromptRegistry(null);
const gate = {
  editBudget: 4,
  gateMetric: "mixed" as const,
  gateMixedWeight: 0.5,
  gateNoRegression: false,
  gateOff: false,
  rolloutsK: 1,
  evolveSkill: true,
  night: 1,
  recallK: 0,
  dreamFactor: 0,
};
const task = (id: string, split: "train" | "val", hint: string) =>
  makeTask({
    id,
    intent: `q ${id}`,
    split,
    referenceKind: "exact",
    reference: `Ref ${id}`,
    tags: ["rule:units-si"],
    skillHint: hint,
  });

describe("fan-out", () => {
  it("isolates one group's failure; a handoff pause still stops the night", async () => {
    const s = sandbox();
    const root = join(s.project, ".agents", "skills");
    writeText(join(root, "good", "SKILL.md"), "# good\n");
    writeText(join(root, "bad", "SKILL.md"), "# bad\n");
    class Exploding extends MockBackend {
      override async reflect(input: ReflectInput): Promise<EditRecord[]> {
        if (input.skill.startsWith("# bad")) throw new Error("model fell over");
        return super.reflect(input);
      }
    }
    const tasks = [
      task("g1", "train", "good"),
      task("g2", "val", "good"),
      task("b1", "train", "bad"),
      task("b2", "val", "bad"),
    ];
    const input = {
      tasks,
      managedName: "managed",
      managedSkill: "",
      memory: "",
      roots: [root],
      history: [],
      options: gate,
    };
    const { outcomes } = await consolidateGroups({ backend: new Exploding(), prompts, now: () => 0 }, input);
    expect(outcomes.map((o) => [o.skillName, o.status, o.result?.accepted ?? null, o.reason])).toEqual([
      ["good", "consolidated", true, ""],
      ["bad", "failed", null, "Error: model fell over"],
    ]);
    class Paused extends MockBackend {
      override async reflect(): Promise<EditRecord[]> {
        throw new PendingCalls(1);
      }
    }
    await expect(consolidateGroups({ backend: new Paused(), prompts, now: () => 0 }, input)).rejects.toBeInstanceOf(
      PendingCalls,
    );
  });
});

describe("contrastive reflection (dream_rollouts > 1)", () => {
  it("shows the optimizer the better and worse attempts of the same task and uses its rules", async () => {
    const calls: string[] = [];
    class Varying extends MockBackend {
      override async attempt(t: TaskRecord, skill: string, memory: string, sampleId = 0): Promise<string> {
        return sampleId === 1 ? t.reference : super.attempt(t, skill, memory);
      }
      override async call(prompt: string, _opts: { maxTokens: number; kind: string }): Promise<string> {
        calls.push(prompt);
        return 'Here: [{"op":"add","content":"Always include SI units in numeric answers.","rationale":"the better attempt gave units"}]';
      }
      override async reflect(): Promise<EditRecord[]> {
        throw new Error("plain reflect must not be needed");
      }
    }
    const r = await consolidate(
      { backend: new Varying(), prompts, now: () => 0 },
      [task("t1", "train", ""), task("v1", "val", "")],
      "",
      "",
      { ...gate, rolloutsK: 3, evolveMemory: false },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain(
      "## Task: q t1\n- BETTER attempt (mixed score 1.000; hard 1.000, soft 1.000): Ref t1\n- WORSE attempt",
    );
    expect(r.accepted).toBe(true);
    expect(r.appliedEdits.map((e) => e.rationale)).toEqual(["the better attempt gave units"]);
  });
});
