import { describe, expect, it } from "vitest";
import type { RolloutInput } from "../../engine/ports";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient, type FakeReply } from "../test-helpers";
import { createSearchQaEnv } from "./index";

const item: Item = {
  id: "q1",
  question: "Which river flows through Castellan?",
  context: "[DOC] Castellan lies on the River Doune.",
  answers: ["River Doune", "Doune river"],
};

function run(
  reply: FakeReply | ((call: number) => FakeReply),
  env: Record<string, unknown> = {},
  extra: Partial<RolloutInput> = {},
) {
  const client = fakeClient((_, call) => (typeof reply === "function" ? reply(call) : reply));
  const config = buildRunConfig({ exec_timeout: 0.05, ...env });
  const input: RolloutInput = {
    item,
    skill: "# Skill\n- be brief",
    client,
    phase: "train",
    seed: 1,
    useEvalFeedback: true,
    ...extra,
  };
  return { client, promise: createSearchQaEnv(config).rollout(input) };
}

describe("SearchQA rollout", () => {
  it("scores a correct answer and records the conversation", async () => {
    const { client, promise } = run("Passage one says so. <answer>the River Doune</answer>");
    const t = await promise;
    expect(t).toMatchObject({
      id: "q1",
      hard: 1,
      soft: 1,
      status: "ok",
      prediction: "the River Doune",
      reference: "River Doune | Doune river",
      taskType: "qa",
      question: item.question,
      nTurns: 1,
      latencyMs: 5,
      promptTokens: 100,
      completionTokens: 10,
    });
    expect(t.failReason).toBeUndefined();
    const req = client.calls[0];
    expect(req).toMatchObject({ role: "target", stage: "rollout", maxTokens: 16384, reasoningEffort: "medium" });
    expect(req?.system).toContain("\n## Skill\n# Skill\n- be brief\n## End of Skill\n");
    // The analysts see the target's system prompt in the trajectory, as in the original.
    expect(t.targetSystemPrompt).toBe(req?.system);
    expect(req?.messages).toEqual([
      { role: "user", content: `## Context\n${item.context}\n\n## Question\n${item.question}` },
    ]);
    expect(t.conversation).toHaveLength(3);
    expect(t.conversation[2]).toEqual({
      role: "system",
      content: `[EVALUATION RESULT] question: ${item.question} | predicted: the River Doune | gold: ['River Doune', 'Doune river'] | EM=1, F1=1.000`,
    });
  });

  it("scores a wrong answer with a reason", async () => {
    const t = await run("<answer>Castellan lies on the River Doune.</answer>").promise;
    expect(t.hard).toBe(0);
    expect(t.soft).toBeGreaterThan(0);
    expect(t.failReason).toBe(
      "EM=0: predicted 'Castellan lies on the River Doune.' but expected ['River Doune', 'Doune river']",
    );
  });

  it("an answer cut off by the token limit, again on the retry, is truncated — not scored as wrong", async () => {
    const limits: number[] = [];
    const client = {
      backend: "fake",
      model: "fake-target",
      complete: async (req: { maxTokens: number }) => {
        limits.push(req.maxTokens);
        return {
          text: "Passage one says the river is",
          usage: { promptTokens: 100, completionTokens: req.maxTokens },
          latencyMs: 5,
          cached: false,
          truncated: true,
        };
      },
    };
    const config = buildRunConfig({ max_completion_tokens: 300 });
    const t = await createSearchQaEnv(config).rollout({
      item,
      skill: "# Skill",
      client,
      phase: "selection",
      seed: 1,
      useEvalFeedback: false,
    });
    expect(limits).toEqual([300, 600]);
    expect(t).toMatchObject({
      status: "truncated",
      hard: 0,
      soft: 0,
      failReason: "truncated: the answer was cut off at the 300-token limit, and again at 600 tokens",
    });
    expect(t.prediction).toBeUndefined();
  });

  it("turns a throwing client into an error trajectory", async () => {
    const t = await run(new Error("HTTP 500\nupstream")).promise;
    expect(t).toMatchObject({ status: "error", hard: 0, soft: 0, failReason: "error: HTTP 500 upstream" });
  });

  it("times out a call that hangs past exec_timeout, even if the client ignores its signal", async () => {
    expect(await run("hang").promise).toMatchObject({
      status: "timeout",
      failReason: "timeout: no answer within 0.05s",
    });
    expect(await run("hang-ignoring-signal").promise).toMatchObject({ status: "timeout", hard: 0 });
  });

  it("rejects when the run is cancelled", async () => {
    const controller = new AbortController();
    const { promise } = run("hang", { exec_timeout: 0 }, { signal: controller.signal });
    controller.abort(new Error("run cancelled"));
    await expect(promise).rejects.toThrow("run cancelled");
  });

  it("returns an error trajectory naming a missing field", async () => {
    const client = fakeClient(() => "<answer>x</answer>");
    const env = createSearchQaEnv(buildRunConfig());
    const bad = { id: "b", question: "Q?", answers: ["x"] };
    const t = await env.rollout({ item: bad, skill: "", client, phase: "test", seed: 0, useEvalFeedback: false });
    expect(t).toMatchObject({ status: "error", failReason: "error: item is missing field 'context'" });
    expect(client.calls).toHaveLength(0);
  });

  it("sends refinement turns when max_turns > 1 and stops once a later reply has an answer tag", async () => {
    const replies = ["I think <answer>Doune</answer>", "Re-checked: <answer>River Doune</answer>", "never sent"];
    const { client, promise } = run((call) => replies[call] ?? "", { max_turns: 3 });
    const t = await promise;
    expect(client.calls).toHaveLength(2);
    expect(client.calls[1]?.messages).toHaveLength(3);
    expect(client.calls[1]?.messages[2]?.content).toContain("Your previous answer was: Doune");
    expect(t).toMatchObject({ hard: 1, nTurns: 2, promptTokens: 200 });
    expect(t.conversation).toHaveLength(5);
  });

  it("exposes the task types and taxonomy", () => {
    const env = createSearchQaEnv(buildRunConfig());
    expect(env.taskTypes()).toEqual(["qa"]);
    expect(env.failureTaxonomy()).toEqual(["rule_missing", "rule_wrong", "rule_ignored", "answer_format", "other"]);
  });
});
