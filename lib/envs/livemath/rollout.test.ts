import { describe, expect, it } from "vitest";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient, type FakeReply } from "../test-helpers";
import { createLiveMathEnv } from "./index";

const item: Item = {
  id: "202511:2",
  question: "What does the theorem give?",
  choices: [
    { label: "A", text: "At least one fixed point." },
    { label: "B", text: "Exactly one fixed point." },
    { label: "C", text: "No fixed point." },
  ],
  correct_choice: { label: "A", text: "At least one fixed point." },
  theorem: "Every continuous self-map of the ball has a fixed point.",
  sketch: "No retraction onto the sphere.",
  theorem_type: ["topology", "fixed_point"],
};

async function run(reply: FakeReply, env: Record<string, unknown> = {}, signal?: AbortSignal) {
  const client = fakeClient(() => reply);
  const config = buildRunConfig({ name: "livemath", exec_timeout: 0.05, ...env });
  const trajectory = await createLiveMathEnv(config).rollout({
    item,
    skill: "# S\n- check",
    client,
    phase: "selection",
    seed: 3,
    useEvalFeedback: false,
    signal,
  });
  return { client, trajectory };
}

describe("LiveMath rollout", () => {
  it("records the target's system prompt for the analysts (shown to them in deep mode)", async () => {
    const { client, trajectory } = await run("<answer>B</answer>");
    expect(trajectory.targetSystemPrompt).toBe(client.calls[0]!.system);
    expect(trajectory.targetSystemPrompt).toContain("# S\n- check");
  });

  it("scores the correct label and reports option texts", async () => {
    const { client, trajectory } = await run("Brouwer. <answer>A</answer>");
    expect(trajectory).toMatchObject({
      id: "202511:2",
      hard: 1,
      soft: 1,
      status: "ok",
      prediction: "At least one fixed point.",
      reference: "At least one fixed point.",
      taskType: "topology",
      nTurns: 1,
      referenceText:
        "## Reference Theorem\nEvery continuous self-map of the ball has a fixed point.\n\n## Reference Sketch\nNo retraction onto the sphere.",
    });
    expect(trajectory.failReason).toBeUndefined();
    const user = client.calls[0]?.messages[0]?.content;
    expect(user).toBe(
      "## Question\nWhat does the theorem give?\n\n## Choices\nA. At least one fixed point.\nB. Exactly one fixed point.\nC. No fixed point.",
    );
    expect(client.calls[0]?.system).toContain("\n## Skill\n# S\n- check\n## End of Skill\n");
  });

  it("scores a wrong label with the MCQ reason", async () => {
    const { trajectory } = await run("<answer>B</answer>");
    expect(trajectory).toMatchObject({
      hard: 0,
      soft: 0,
      prediction: "Exactly one fixed point.",
      failReason: "MCQ=0: predicted 'B' but expected 'A'",
    });
  });

  it("adds the theorem and sketch sections when enabled", async () => {
    const { client } = await run("<answer>A</answer>", { use_theorem: true, use_sketch: true });
    const user = client.calls[0]?.messages[0]?.content as string;
    expect(user).toContain("\n\n## Theorem\nEvery continuous self-map");
    expect(user.endsWith("## Proof Sketch\nNo retraction onto the sphere.")).toBe(true);
  });

  it("maps a throw to error, a hang to timeout, and rejects on cancellation", async () => {
    expect((await run(new Error("boom"))).trajectory).toMatchObject({
      status: "error",
      failReason: "error: boom",
      hard: 0,
    });
    expect((await run("hang")).trajectory).toMatchObject({
      status: "timeout",
      failReason: "timeout: no answer within 0.05s",
    });
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    await expect(run("hang", {}, controller.signal)).rejects.toThrow("cancelled");
  });

  it("returns an error trajectory for an item without choices", async () => {
    const env = createLiveMathEnv(buildRunConfig({ name: "livemath" }));
    const client = fakeClient(() => "<answer>A</answer>");
    const t = await env.rollout({
      item: { id: "x", question: "Q" },
      skill: "",
      client,
      phase: "test",
      seed: 0,
      useEvalFeedback: false,
    });
    expect(t).toMatchObject({
      status: "error",
      failReason: "error: item is missing field 'choices'",
      taskType: "math_mcq",
    });
    expect(client.calls).toHaveLength(0);
  });

  it("lists task types as the sorted union of theorem types", () => {
    const env = createLiveMathEnv(buildRunConfig({ name: "livemath" }), { train: [item], val: [], test: [] });
    expect(env.taskTypes()).toEqual(["fixed_point", "topology"]);
    expect(env.failureTaxonomy()).toEqual([
      "quantifier_miss",
      "strength_mismatch",
      "condition_miss",
      "option_confusion",
      "other",
    ]);
  });
});
