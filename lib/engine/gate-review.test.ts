import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import type { RunConfigInput } from "../contracts/run-config";
import { ReviewPendingError, resolveReviewAnswer } from "./gate-review";
import { MemoryCheckpointStore } from "./memory-store";
import type { GateReviewAnswer, GateReviewRequest, GateReviewer, ModelClient } from "./ports";
import { CountingClient, ScriptedClient, testConfig, testDeps } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { SIGNATURES } from "./prompts/common";
import { runTraining } from "./trainer";

type GateEvent = Extract<EngineEvent, { type: "gateDecided" }>;
type Rec = Record<string, unknown>;

class FakeReviewer implements GateReviewer {
  readonly asked: GateReviewRequest[] = [];
  constructor(private readonly reply: (req: GateReviewRequest) => GateReviewAnswer) {}
  async answer(req: GateReviewRequest): Promise<GateReviewAnswer> {
    this.asked.push(req);
    return this.reply(req);
  }
}

const review = (evaluation: RunConfigInput["evaluation"]) =>
  testConfig({ train: { num_epochs: 1, batch_size: 4 }, evaluation });
const decided = (decision: "accept" | "reject" | "edit", editedSkill?: string): GateReviewAnswer => ({
  kind: "decided",
  decision,
  note: `note for ${decision}`,
  author: "rev",
  ...(editedSkill ? { editedSkill } : {}),
});

async function history(store: MemoryCheckpointStore): Promise<Rec[]> {
  return (await store.getJson<Rec[]>("history.json")) ?? [];
}

describe("resolveReviewAnswer", () => {
  it("a reviewer's decision settles the review in every mode", () => {
    expect(resolveReviewAnswer("required", "gate", decided("reject"))).toEqual({
      decision: "reject",
      source: "reviewer",
      note: "note for reject",
      author: "rev",
    });
    expect(resolveReviewAnswer("ask", "accept", decided("edit", "# new\n"))).toMatchObject({
      decision: "edit",
      editedSkill: "# new\n",
    });
  });
  it("an expired ask takes the fallback; an expired required review stays open", () => {
    expect(resolveReviewAnswer("ask", "reject", { kind: "expired" })).toMatchObject({
      decision: "reject",
      source: "timeout",
    });
    expect(resolveReviewAnswer("ask", "gate", { kind: "expired" })).toMatchObject({ decision: "gate" });
    expect(resolveReviewAnswer("required", "accept", { kind: "expired" })).toBeNull();
    expect(resolveReviewAnswer("ask", "accept", { kind: "pending" })).toBeNull();
  });
  it("edit-then-accept without text is refused, naming the field", () => {
    expect(() => resolveReviewAnswer("ask", "gate", decided("edit", "  "))).toThrow(/edited skill/);
  });
});

describe("human review in a run", () => {
  it("pauses at the first gate with the candidate, its evidence and the automatic decision; nothing is committed", async () => {
    const reviewer = new FakeReviewer(() => ({ kind: "pending" }));
    const deps = testDeps({ optimizer: wordOptimizer(), config: review({ human_review: "ask" }) });
    await expect(runTraining({ ...deps, reviewer })).rejects.toBeInstanceOf(ReviewPendingError);
    expect(reviewer.asked).toHaveLength(1);
    const req = reviewer.asked[0]!;
    expect(req).toMatchObject({ step: 1, mode: "ask", timeoutS: 3600, automatic: "accept_new_best" });
    expect(req.candidate).not.toBe(req.currentSkill);
    expect(req.evidence?.nPaired).toBe(6);
    expect(deps.eventsSeen.map((e) => e.type)).not.toContain("gateDecided");
    expect(deps.eventsSeen.map((e) => e.type)).not.toContain("runFailed");
    expect(await history(deps.store)).toEqual([]);
    expect(await deps.store.getJson("steps/step_0001/gate_review.json")).toBeUndefined();
  });

  it("resumes after a restart from the checkpoint: the decision applies and no model call is paid twice", async () => {
    const cfg = review({ human_review: "required" });
    // Reference: the same run with the reviewer's answer already in.
    const refOpt = new CountingClient(wordOptimizer());
    const refTgt = new CountingClient(new ScriptedClient(() => "ok"));
    const refReviewer = new FakeReviewer(() => decided("reject"));
    const ref = testDeps({ optimizer: refOpt, target: refTgt, config: cfg });
    await runTraining({ ...ref, reviewer: refReviewer });

    const store = new MemoryCheckpointStore();
    const opt1 = new CountingClient(wordOptimizer());
    const tgt1 = new CountingClient(new ScriptedClient(() => "ok"));
    const first = testDeps({ optimizer: opt1, target: tgt1, config: cfg, store });
    await expect(runTraining({ ...first, reviewer: new FakeReviewer(() => ({ kind: "pending" })) })).rejects.toThrow(
      ReviewPendingError,
    );
    // A new process: fresh clients and reviewer, the same checkpoint store.
    const opt2 = new CountingClient(wordOptimizer());
    const tgt2 = new CountingClient(new ScriptedClient(() => "ok"));
    const second = testDeps({ optimizer: opt2, target: tgt2, config: cfg, store });
    const reviewer = new FakeReviewer(() => decided("reject"));
    await runTraining({ ...second, reviewer });

    expect(opt1.count + opt2.count).toBe(refOpt.count);
    expect(tgt1.count + tgt2.count).toBe(refTgt.count);
    const gate = second.eventsSeen.find((e): e is GateEvent => e.type === "gateDecided" && e.step === 1)!;
    expect(gate.action).toBe("reject");
    expect(gate.review).toMatchObject({ decision: "reject", source: "reviewer", automatic: "accept_new_best" });
    const rec = (await history(store)).find((h) => h.step === 1)!;
    expect(rec.action).toBe("reject");
    expect(rec.review).toMatchObject({ note: "note for reject", author: "rev", action: "reject" });
    expect(await history(store)).toEqual(await history(ref.store));
  });

  it("a decided review is stored: a step re-run after it asks nobody again", async () => {
    const store = new MemoryCheckpointStore();
    const cfg = review({ human_review: "ask" });
    await runTraining({
      ...testDeps({ optimizer: wordOptimizer(), config: cfg, store }),
      reviewer: new FakeReviewer(() => decided("accept")),
    });
    const memo = await store.getJson<Rec>("steps/step_0001/gate_review.json");
    expect(memo).toMatchObject({ decision: "accept", source: "reviewer" });
    // A re-run of step 1 that finds the stored decision (a crash after it, before the commit) asks nobody.
    const reviewer = new FakeReviewer(() => ({ kind: "pending" }));
    const again = testDeps({ optimizer: wordOptimizer(), config: cfg });
    await again.store.putJson("steps/step_0001/gate_review.json", memo);
    await runTraining({ ...again, reviewer });
    expect(reviewer.asked).toEqual([]);
    const gate = again.eventsSeen.find((e): e is GateEvent => e.type === "gateDecided" && e.step === 1)!;
    expect(gate.review).toMatchObject({ decision: "accept", note: "note for accept" });
  });

  it("an expired ask applies the fallback; gate keeps the automatic decision", async () => {
    const run = async (fallback: "accept" | "reject" | "gate") => {
      const deps = testDeps({
        optimizer: wordOptimizer(),
        config: review({ human_review: "ask", human_review_fallback: fallback }),
      });
      await runTraining({ ...deps, reviewer: new FakeReviewer(() => ({ kind: "expired" })) });
      return deps.eventsSeen.find((e): e is GateEvent => e.type === "gateDecided" && e.step === 1)!;
    };
    const rejected = await run("reject");
    expect(rejected.action).toBe("reject");
    expect(rejected.review).toMatchObject({ decision: "reject", source: "timeout", automatic: "accept_new_best" });
    expect((await run("gate")).action).toBe("accept_new_best");
    expect((await run("accept")).review?.source).toBe("timeout");
  });

  it("an expired required review keeps waiting", async () => {
    const deps = testDeps({ optimizer: wordOptimizer(), config: review({ human_review: "required" }) });
    const reviewer = new FakeReviewer(() => ({ kind: "expired" }));
    await expect(runTraining({ ...deps, reviewer })).rejects.toBeInstanceOf(ReviewPendingError);
  });

  it("edit-then-accept scores the edited text and keeps it as current (and best when it beats best)", async () => {
    const edited = "# Skill\n\n## Rules\n- Mention alpha, beta and gamma.\n";
    const deps = testDeps({ optimizer: wordOptimizer(), config: review({ human_review: "ask" }) });
    const reviewer = new FakeReviewer((req) => (req.step === 1 ? decided("edit", edited) : decided("reject")));
    await runTraining({ ...deps, reviewer });
    const committed = deps.eventsSeen.find(
      (e): e is Extract<EngineEvent, { type: "stepCommitted" }> => e.type === "stepCommitted" && e.step === 1,
    )!;
    expect(committed.currentSkill).toBe(edited);
    expect(committed.bestSkill).toBe(edited);
    expect(committed.bestScore).toBe(1);
    expect(committed.record.review).toMatchObject({ decision: "edit", edited_score: 1, action: "accept_new_best" });
  });

  it("a human accept of a worse candidate makes it current but not best", async () => {
    // The analyst replaces the rule that answers two thirds of the items: the gate alone would reject it.
    const inner = wordOptimizer();
    const analyst = new ScriptedClient(() =>
      JSON.stringify({
        batch_size: 2,
        patch: { reasoning: "x", edits: [{ op: "replace", target: "- alpha beta", content: "- none" }] },
      }),
    );
    const harmful: ModelClient = {
      backend: "scripted",
      model: "scripted",
      complete: (req) => (req.system.startsWith(SIGNATURES.failureAnalyst) ? analyst : inner).complete(req),
    };
    const initialSkill = "# Skill\n\n## Rules\n- alpha beta\n";
    const deps = testDeps({ optimizer: harmful, config: review({ human_review: "ask" }), initialSkill });
    const reviewer = new FakeReviewer(() => decided("accept"));
    await runTraining({ ...deps, reviewer });
    const gate = deps.eventsSeen.find((e): e is GateEvent => e.type === "gateDecided" && e.step === 1)!;
    expect(reviewer.asked[0]!.automatic).toBe("reject");
    expect(gate.action).toBe("accept");
    expect(gate.currentScore).toBeLessThan(gate.bestScore);
  });

  it("human review without a reviewer fails the run naming the key", async () => {
    const deps = testDeps({ optimizer: wordOptimizer(), config: review({ human_review: "ask" }) });
    await expect(runTraining(deps)).rejects.toThrow(/evaluation\.human_review/);
  });
});
