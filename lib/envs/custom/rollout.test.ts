import { describe, expect, it } from "vitest";
import type { RolloutInput } from "../../engine/ports";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient, type FakeReply } from "../test-helpers";
import { createCustomEnv } from "./index";
import { buildJudgePrompt, DEFAULT_RUBRIC, parseJudgeReply } from "./judge";

const item: Item = {
  id: "c1",
  question: "How deep is Lake Varrow?",
  answers: ["64 m"],
  context: "Lake Varrow reaches 64 m.",
};

function setup(env: Record<string, unknown>, target: FakeReply, judge?: (call: number) => FakeReply) {
  const targetClient = fakeClient(() => target);
  const judgeClient = judge ? fakeClient((_, call) => judge(call)) : undefined;
  const config = buildRunConfig({ name: "custom", exec_timeout: 0.05, ...env });
  const input: RolloutInput = {
    item,
    skill: "# Skill\n- be brief",
    client: targetClient,
    phase: "train",
    seed: 1,
    useEvalFeedback: true,
  };
  return { targetClient, judgeClient, run: () => createCustomEnv(config, judgeClient).rollout(input) };
}

describe("custom rollout", () => {
  it("sends the skill in the system prompt and Context then Question, and scores with the metric", async () => {
    const { targetClient, run } = setup({ metric: "contains" }, "Reading it: <answer>about 64 m deep</answer>");
    const t = await run();
    const req = targetClient.calls[0]!;
    expect(req.system).toContain("\n## Skill\n# Skill\n- be brief\n## End of Skill\n");
    expect(t.targetSystemPrompt).toBe(req.system);
    expect(req.messages[0]?.content).toBe(
      "## Context\nLake Varrow reaches 64 m.\n\n## Question\nHow deep is Lake Varrow?",
    );
    expect(t).toMatchObject({
      status: "ok",
      hard: 1,
      soft: 1,
      prediction: "about 64 m deep",
      reference: "64 m",
      taskType: "qa",
    });
    expect(t.conversation.at(-1)).toEqual({
      role: "system",
      content:
        "[EVALUATION RESULT] question: How deep is Lake Varrow? | predicted: about 64 m deep | gold: ['64 m'] | metric contains: hard=1, soft=1.000",
    });
  });

  it("has no Context section when the item has none", async () => {
    const { targetClient, run } = setup({}, "<answer>64 m</answer>");
    const noContext = { id: "c2", question: "Q?", answers: ["x"] };
    await createCustomEnv(buildRunConfig({ name: "custom" })).rollout({
      item: noContext,
      skill: "",
      client: targetClient,
      phase: "test",
      seed: 0,
      useEvalFeedback: false,
    });
    expect(targetClient.calls[0]?.messages[0]?.content).toBe("## Question\nQ?");
    await run();
  });

  it("gives a wrong answer a reason the analyst can read", async () => {
    const t = await setup({ metric: "numeric", numeric_tolerance: 0.01 }, "<answer>70</answer>").run();
    expect(t).toMatchObject({
      status: "ok",
      hard: 0,
      soft: 0,
      failReason: "numeric=0: predicted 70 but expected ['64 m'] (tolerance 0.01)",
    });
  });

  it("turns model failures and timeouts into error trajectories, and a missing field too", async () => {
    expect(await setup({}, new Error("HTTP 500")).run()).toMatchObject({
      status: "error",
      hard: 0,
      failReason: "error: HTTP 500",
    });
    expect(await setup({}, "hang").run()).toMatchObject({
      status: "timeout",
      failReason: "timeout: no answer within 0.05s",
    });
    const client = fakeClient(() => "<answer>x</answer>");
    const t = await createCustomEnv(buildRunConfig({ name: "custom" })).rollout({
      item: { id: "b", question: "Q?" },
      skill: "",
      client,
      phase: "test",
      seed: 0,
      useEvalFeedback: false,
    });
    expect(t).toMatchObject({ status: "error", failReason: "error: item is missing field 'answers'" });
    expect(client.calls).toHaveLength(0);
  });
});

describe("LLM judge", () => {
  it("asks the optimizer model (stage judge) with the rubric and uses its score", async () => {
    const { judgeClient, run } = setup(
      { metric: "judge", judge_rubric: "Units are required." },
      "<answer>64 metres</answer>",
      () => 'Verdict: {"score": 0.9, "reason": "same depth, unit spelled out"}',
    );
    const t = await run();
    const req = judgeClient!.calls[0]!;
    expect(req).toMatchObject({ role: "optimizer", stage: "judge" });
    expect(req.messages[0]?.content).toBe(
      buildJudgePrompt({
        question: "How deep is Lake Varrow?",
        golds: ["64 m"],
        answer: "64 metres",
        rubric: "Units are required.",
      }),
    );
    expect(req.messages[0]?.content).toContain("## Rubric\nUnits are required.");
    expect(t).toMatchObject({
      status: "ok",
      hard: 1,
      soft: 0.9,
      prediction: "64 metres",
      extras: { judge_score: 0.9 },
    });
    // The grading call rides on the row, so the engine can count it (stage "judge").
    expect(t.judgeUsage?.calls).toBe(1);
    expect(String((t.conversation.at(-1) as { content: string }).content)).toContain(
      "judge: same depth, unit spelled out",
    );
  });

  it("fails below the pass mark with the judge's reason, and uses the built-in rubric when none is set", async () => {
    const { judgeClient, run } = setup(
      { metric: "judge" },
      "<answer>12 m</answer>",
      () => '```json\n{"score": 0, "reason": "wrong depth"}\n```',
    );
    expect(await run()).toMatchObject({ status: "ok", hard: 0, soft: 0, failReason: "judge score 0.00: wrong depth" });
    expect(judgeClient!.calls[0]?.messages[0]?.content).toContain(DEFAULT_RUBRIC);
  });

  it("makes malformed or failed grading an error trajectory with the reason, never a 0 score", async () => {
    const malformed = await setup({ metric: "judge" }, "<answer>64 m</answer>", () => "I think it is right.").run();
    expect(malformed).toMatchObject({
      status: "error",
      hard: 0,
      failReason: "error: judge reply has no JSON object: 'I think it is right.'",
    });
    const outOfRange = await setup(
      { metric: "judge" },
      "<answer>64 m</answer>",
      () => '{"score": 7, "reason": "great"}',
    ).run();
    expect(outOfRange.status).toBe("error");
    expect(outOfRange.failReason).toMatch(/^error: judge reply has no usable score \(score: /);
    const down = await setup({ metric: "judge" }, "<answer>64 m</answer>", () => new Error("HTTP 503")).run();
    expect(down).toMatchObject({ status: "error", failReason: "judge error: HTTP 503" });
    const none = await setup({ metric: "judge" }, "<answer>64 m</answer>").run();
    expect(none).toMatchObject({
      status: "error",
      failReason: "error: metric 'judge' needs the optimizer model, which this run does not provide",
    });
  });

  it("parses verdicts strictly", () => {
    expect(parseJudgeReply('{"score": 1}')).toEqual({ ok: true, verdict: { score: 1, reason: "" } });
    expect(parseJudgeReply('{"score": "high"}').ok).toBe(false);
    expect(parseJudgeReply("{score: 1,}")).toMatchObject({
      ok: false,
      reason: "judge reply is not valid JSON: '{score: 1,}'",
    });
  });
});
