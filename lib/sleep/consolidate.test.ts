import { describe, expect, it } from "vitest";
import { MOCK_RULES, MockBackend } from "./backend/mock";
import type { ReflectInput } from "./backend/types";
import { consolidate, splitForGate, type ConsolidateOptions } from "./consolidate";
import { dreamAugment, dreamConsolidate, recallSimilar } from "./dream";
import { learnedLines } from "./learned";
import { PromptRegistry } from "./prompts";
import { makeTask, type EditRecord, type TaskRecord } from "./types";

const prompts = new PromptRegistry(null);
const opts = (o: Partial<ConsolidateOptions> = {}): ConsolidateOptions => ({
  editBudget: 4,
  gateMetric: "mixed",
  gateMixedWeight: 0.5,
  gateNoRegression: false,
  gateOff: false,
  rolloutsK: 1,
  evolveSkill: true,
  evolveMemory: false,
  night: 1,
  ...o,
});
const task = (id: string, split: "train" | "val" | "test", rules: string[], reference = `answer ${id}`): TaskRecord =>
  makeTask({
    id,
    intent: `question ${id}`,
    split,
    referenceKind: "exact",
    reference,
    tags: rules.map((r) => `rule:${r}`),
  });

/** The mock, with reflect replaced by a fixed script of edits per target. */
class ScriptedReflect extends MockBackend {
  calls: ReflectInput[] = [];
  constructor(private readonly script: Partial<Record<"skill" | "memory", EditRecord[]>>) {
    super();
  }
  override async reflect(input: ReflectInput): Promise<EditRecord[]> {
    this.calls.push(input);
    return this.script[input.target] ?? [];
  }
}
const add = (content: string, target: "skill" | "memory" = "skill"): EditRecord => ({
  target,
  op: "add",
  content,
  anchor: "",
  rationale: "test",
});
const run = (b: MockBackend, tasks: TaskRecord[], o: Partial<ConsolidateOptions> = {}, skill = "", memory = "") =>
  consolidate({ backend: b, prompts, now: () => 0 }, tasks, skill, memory, opts(o));

describe("consolidate: the gate", () => {
  it("accepts edits that lift the val score strictly, as a new best", async () => {
    const tasks = [task("t1", "train", ["units-si"]), task("v1", "val", ["units-si"])];
    const r = await run(new MockBackend(), tasks);
    expect(r).toMatchObject({ accepted: true, gateAction: "accept_new_best", holdoutLeaked: false });
    expect(r.baselineScore).toBeLessThan(r.candidateScore);
    expect(learnedLines(r.newSkill)).toEqual([MOCK_RULES["units-si"]]);
    expect(r.gateTrials.map((t) => [t.target, t.accepted])).toEqual([
      ["skill", true],
      ["final", true],
    ]);
    expect(r.gateTrials[0]!.taskDeltas).toEqual([
      {
        taskId: "v1",
        tags: ["rule:units-si"],
        baselineScore: expect.any(Number),
        candidateScore: 1,
        status: "improved",
        scoresAreFinite: true,
      },
    ]);
  });

  it("rejects a harmful edit that does not raise the val score; documents revert and the edit is listed as rejected", async () => {
    const tasks = [task("h", "train", ["__harmful__"]), task("v1", "val", ["units-si"])];
    const skill = `# s\n\n${MOCK_RULES["units-si"]}\n`;
    const r = await run(new MockBackend(), tasks, {}, skill);
    expect(r).toMatchObject({ accepted: false, gateAction: "reject", newSkill: skill });
    expect(r.appliedEdits).toEqual([]);
    expect(r.rejectedEdits.map((e) => e.content)).toEqual([MOCK_RULES.__harmful__]);
  });

  it("ties are rejected (strict >)", async () => {
    const tasks = [task("t1", "train", ["units-si"]), task("v1", "val", ["json-only"])];
    const r = await run(new MockBackend(), tasks);
    expect(r.gateAction).toBe("reject");
    expect(r.gateTrials[0]).toMatchObject({ target: "skill", accepted: false });
    expect(r.gateTrials[0]!.baselineScore).toBe(r.gateTrials[0]!.candidateScore);
  });

  it("with no-regression on, an edit that lifts the mean but regresses one val task is blocked", async () => {
    // v1, v3, v4 need units-si and gain; v2 is solved only while that rule is absent, so it regresses.
    class Regressing extends ScriptedReflect {
      override async attempt(t: TaskRecord, skill: string, memory: string): Promise<string> {
        if (t.id === "v2") return skill.includes(MOCK_RULES["units-si"]!) ? "nothing" : t.reference;
        return super.attempt(t, skill, memory);
      }
    }
    const tasks = [
      task("t1", "train", ["units-si"]),
      task("v1", "val", ["units-si"]),
      task("v3", "val", ["units-si"]),
      task("v4", "val", ["units-si"]),
      task("v2", "val", []),
    ];
    const plain = await run(new Regressing({ skill: [add(MOCK_RULES["units-si"]!)] }), tasks);
    expect(plain.accepted).toBe(true);
    const strict = await run(new Regressing({ skill: [add(MOCK_RULES["units-si"]!)] }), tasks, {
      gateNoRegression: true,
    });
    expect(strict).toMatchObject({ accepted: false, gateAction: "reject" });
    expect(strict.gateTrials[0]).toMatchObject({ accepted: false, blockedByRegression: true });
    expect(strict.gateTrials[0]!.taskDeltas.find((d) => d.taskId === "v2")!.status).toBe("regressed");
  });

  it("a night whose gate saw the optimizer's own tasks is reject_unverified, its edits kept as suggestions", async () => {
    const r = await run(new MockBackend(), [task("only", "train", ["units-si"])]);
    expect(r).toMatchObject({ holdoutLeaked: true, accepted: false, gateAction: "reject_unverified" });
    expect(r.rejectedEdits.map((e) => e.content)).toEqual([MOCK_RULES["units-si"]]);
    expect(splitForGate([task("a", "val", [])])).toMatchObject({ leaked: true });
    expect(splitForGate([task("a", "train", []), task("b", "val", [])])).toMatchObject({ leaked: false });
    expect(splitForGate([task("a", "test", [])])).toEqual({ train: [], val: [], leaked: false });
  });

  it("greedy mode scores nothing on val and keeps every applied edit", async () => {
    const b = new MockBackend();
    const tasks = [task("t1", "train", ["units-si"]), task("v1", "val", ["json-only"])];
    const r = await run(b, tasks, { gateOff: true });
    expect(r).toMatchObject({
      accepted: true,
      gateAction: "greedy_applied",
      baselineScore: 0,
      candidateScore: 0,
      gateTrials: [],
    });
    expect(learnedLines(r.newSkill)).toEqual([MOCK_RULES["units-si"]]);
    const noop = await run(new ScriptedReflect({}), tasks, { gateOff: true });
    expect(noop).toMatchObject({ accepted: false, gateAction: "greedy_noop" });
  });

  it("reports edits that changed nothing as unmatched, never gated", async () => {
    const b = new ScriptedReflect({
      skill: [{ target: "skill", op: "delete", content: "", anchor: "no such line", rationale: "" }, add("")],
    });
    const r = await run(b, [task("t1", "train", ["units-si"]), task("v1", "val", ["units-si"])]);
    expect(r.unmatchedEdits.map((e) => e.op)).toEqual(["delete", "add"]);
    expect(r.gateTrials.map((t) => t.target)).toEqual(["final"]);
    expect(r.gateAction).toBe("reject");
  });

  it("tries memory edits after the skill, on a fresh train replay, gated the same way", async () => {
    const b = new ScriptedReflect({
      skill: [add(MOCK_RULES["wrap-answer"]!)],
      memory: [add(MOCK_RULES["arxiv-id"]!, "memory")],
    });
    const tasks = [task("t1", "train", ["wrap-answer", "arxiv-id"]), task("v1", "val", ["wrap-answer", "arxiv-id"])];
    const r = await run(b, tasks, { evolveMemory: true });
    expect(b.calls.map((c) => c.target)).toEqual(["skill", "memory"]);
    expect(r.gateTrials.map((t) => [t.target, t.accepted])).toEqual([
      ["skill", false],
      ["memory", false],
      ["final", false],
    ]);
    // Neither rule alone solves the task, so each trial ties the baseline and is rejected.
    expect(r.accepted).toBe(false);
  });
});

describe("recall and dream", () => {
  it("recalls the most similar archived train tasks, never held-out ones or tonight's own", () => {
    const tonight = [makeTask({ id: "n1", intent: "format the arxiv citation list" })];
    const history = [
      makeTask({ id: "h1", intent: "format a citation list for arxiv papers" }),
      makeTask({ id: "h2", intent: "format the arxiv citation list", split: "val" }),
      makeTask({ id: "h3", intent: "bake bread" }),
      makeTask({ id: "n1", intent: "format the arxiv citation list" }),
    ];
    const out = recallSimilar(tonight, history, 5);
    expect(out.map((t) => [t.id, t.split, t.derivedFrom, t.tags.at(-1)])).toEqual([
      ["recall:h1", "train", "h1", "recall"],
    ]);
  });

  it("dream variants are train-only and rephrase the intent", () => {
    const out = dreamAugment([makeTask({ id: "a", intent: "do X", split: "val" })], 2);
    expect(out.map((t) => [t.id, t.intent, t.split, t.origin])).toEqual([
      ["a_dream0", "(quick one) do X", "train", "dream"],
      ["a_dream1", "Please handle this request: do X", "train", "dream"],
    ]);
  });

  it("dreamConsolidate only enlarges the train pool", async () => {
    const b = new ScriptedReflect({});
    const tasks = [task("t1", "train", ["units-si"]), task("v1", "val", ["units-si"])];
    await dreamConsolidate({ backend: b, prompts, now: () => 0 }, tasks, "", "", {
      ...opts(),
      history: [],
      recallK: 0,
      dreamFactor: 1,
    });
    expect(b.calls[0]!.failures.map(([t]) => t.id)).toEqual(["t1", "t1_dream0"]);
  });
});
