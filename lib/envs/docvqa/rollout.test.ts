import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSimClient } from "../../backends/sim";
import { buildSimKnowledge } from "../../contracts/sim";
import type { RolloutInput } from "../../engine/ports";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient, type FakeReply } from "../test-helpers";
import { createDocVqaEnv, docVqaSample, docVqaSimRules } from "./index";
import { DOCVQA_INSTRUCTIONS, DOCVQA_ROLE } from "./prompt";

const IMAGE = "lib/envs/docvqa/sample/images/doc-04-expense-form.png";
const item: Item = {
  id: "61012",
  question: "What is the name of the employee who filed the expense claim?",
  answers: ["Tomas R. Okafor"],
  answer: "Tomas R. Okafor",
  task_type: "form",
  image_path: IMAGE,
  image_paths: [IMAGE],
};
const context = { rootDir: process.cwd(), vars: {} };

function run(
  reply: FakeReply | ((call: number) => FakeReply),
  env: Record<string, unknown> = {},
  extra: Partial<RolloutInput> = {},
) {
  const client = fakeClient((_, call) => (typeof reply === "function" ? reply(call) : reply));
  const config = buildRunConfig({ name: "docvqa", exec_timeout: 0.05, ...env });
  const input: RolloutInput = {
    item,
    skill: "# Skill\n- read carefully",
    client,
    phase: "train",
    seed: 1,
    useEvalFeedback: true,
    ...extra,
  };
  return { client, promise: createDocVqaEnv(config, undefined, context).rollout(input) };
}

describe("DocVQA rollout", () => {
  it("sends one multimodal message (question text + the page as base64 PNG) and scores by ANLS", async () => {
    const { client, promise } = run("The name field reads it.\n<answer>Tomas R. Okafor</answer>");
    const t = await promise;
    expect(t).toMatchObject({
      id: "61012",
      hard: 1,
      soft: 1,
      status: "ok",
      prediction: "Tomas R. Okafor",
      reference: "Tomas R. Okafor",
      taskType: "form",
      question: item.question,
      nTurns: 1,
      latencyMs: 5,
      promptTokens: 100,
      completionTokens: 10,
    });
    expect(t.failReason).toBeUndefined();
    const req = client.calls[0]!;
    expect(req).toMatchObject({ role: "target", stage: "rollout", maxTokens: 16384 });
    expect(req.system).toBe(
      `${DOCVQA_ROLE}\n\n## Skill\n# Skill\n- read carefully\n## End of Skill\n\n${DOCVQA_INSTRUCTIONS}`,
    );
    expect(t.targetSystemPrompt).toBe(req.system);
    const [text, image] = req.messages[0]!.content as Array<Record<string, unknown>>;
    expect(text).toEqual({ type: "text", text: expect.stringContaining(`## Question\n${item.question}\n`) });
    expect(String(text?.text)).toContain("<answer></answer>");
    expect(image).toEqual({
      type: "image",
      mediaType: "image/png",
      dataBase64: readFileSync(IMAGE).toString("base64"),
      name: "doc-04-expense-form.png",
    });
    // The trajectory names the image, it does not carry its bytes; it ends with the evaluation note.
    expect(JSON.stringify(t.conversation)).not.toContain(String(image?.dataBase64).slice(0, 40));
    expect(t.conversation.at(-1)).toEqual({
      role: "system",
      content: `[EVALUATION RESULT] question: ${item.question} | predicted: Tomas R. Okafor | gold: ['Tomas R. Okafor'] | ANLS=1.000, exact=1`,
    });
  });

  it("passes image_detail only when it is not auto", async () => {
    const high = run("<answer>x</answer>", { image_detail: "high" });
    await high.promise;
    expect((high.client.calls[0]!.messages[0]!.content as Array<Record<string, unknown>>)[1]).toMatchObject({
      detail: "high",
    });
    const auto = run("<answer>x</answer>");
    await auto.promise;
    expect((auto.client.calls[0]!.messages[0]!.content as Array<Record<string, unknown>>)[1]).not.toHaveProperty(
      "detail",
    );
  });

  it("gives a near miss soft credit and a reason the analyst can read", async () => {
    const t = await run("<answer>Tomas Okafor</answer>").promise;
    expect(t).toMatchObject({ hard: 0, status: "ok", prediction: "Tomas Okafor" });
    expect(t.soft).toBeCloseTo(0.8, 10);
    expect(t.failReason).toContain("near miss");
  });

  it("turns a missing or unreadable image into an error trajectory without calling the model", async () => {
    const { client, promise } = run("<answer>x</answer>", {}, { item: { ...item, image_path: "nope/missing.png" } });
    const t = await promise;
    expect(t.status).toBe("error");
    expect(t.failReason).toMatch(
      /^error: document image 'nope\/missing\.png' not found \(looked in .*nope\/missing\.png\)$/,
    );
    expect(client.calls).toHaveLength(0);
    const dir = await run("x", {}, { item: { ...item, image_path: "lib/envs/docvqa/sample/images" } }).promise;
    expect(dir.failReason).toMatch(/is not a file$/);
  });

  it("returns an error trajectory naming a missing field", async () => {
    const { client, promise } = run("x", {}, { item: { id: "b", question: "Q?", image_path: IMAGE } });
    expect(await promise).toMatchObject({
      status: "error",
      failReason: "error: item is missing field 'answers'",
      taskType: "docvqa",
    });
    expect(client.calls).toHaveLength(0);
  });

  it("turns a failing or hanging call into error / timeout, and rejects on cancel", async () => {
    expect(await run(new Error("HTTP 500")).promise).toMatchObject({
      status: "error",
      failReason: "error: HTTP 500",
      hard: 0,
    });
    expect(await run("hang-ignoring-signal").promise).toMatchObject({
      status: "timeout",
      failReason: "timeout: no answer within 0.05s",
    });
    const controller = new AbortController();
    const { promise } = run("hang", { exec_timeout: 0 }, { signal: controller.signal });
    controller.abort(new Error("run cancelled"));
    await expect(promise).rejects.toThrow("run cancelled");
  });

  it("asks to look again while there is no <answer> tag, up to max_turns, resending the image conversation", async () => {
    const replies = ["The name is Tomas Okafor", "Looking again: <answer>Tomas R. Okafor</answer>", "never sent"];
    const { client, promise } = run((call) => replies[call] ?? "", { max_turns: 3 });
    const t = await promise;
    expect(client.calls).toHaveLength(2);
    const second = client.calls[1]!.messages;
    expect(second).toHaveLength(3);
    expect(Array.isArray(second[0]!.content)).toBe(true);
    expect(second[2]!.content).toContain("Your previous reply was: The name is Tomas Okafor");
    expect(t).toMatchObject({ hard: 1, nTurns: 2, promptTokens: 200 });
    const once = run("<answer>Tomas R. Okafor</answer>", { max_turns: 3 });
    await once.promise;
    expect(once.client.calls).toHaveLength(1);
    const single = run("no tag here");
    expect(await single.promise).toMatchObject({ nTurns: 1, prediction: "no tag here" });
  });

  it("the sim target finds the question in the text part and answers from the sample annotations", async () => {
    const splits = docVqaSample();
    const sample = splits.train.find((i) => i.id === "61001")!;
    const knowledge = buildSimKnowledge(docVqaSimRules(), [...splits.train, ...splits.val, ...splits.test]);
    const client = createSimClient({
      role: "target",
      knowledge,
      seed: 1,
      slipRate: 0,
      unhelpfulRate: 0,
      malformedRate: 0,
      latencyMs: 0,
    });
    const env = createDocVqaEnv(buildRunConfig({ name: "docvqa", split_mode: "sample" }), splits, context);
    const seed = readFileSync("lib/envs/docvqa/initial.md", "utf8");
    const unguided = await env.rollout({
      item: sample,
      skill: seed,
      client,
      phase: "train",
      seed: 1,
      useEvalFeedback: true,
    });
    expect(unguided).toMatchObject({ status: "ok", hard: 0, prediction: "Invoice No.: INV-20417" });
    const guided = seed.replace(/^- Include the field label.*$/m, "- Give only the value, without the field label.");
    const ok = await env.rollout({
      item: sample,
      skill: guided,
      client,
      phase: "train",
      seed: 1,
      useEvalFeedback: true,
    });
    expect(ok).toMatchObject({ status: "ok", hard: 1, prediction: "INV-20417" });
  });

  it("exposes the sorted task types of the splits and the taxonomy", () => {
    const env = createDocVqaEnv(buildRunConfig({ name: "docvqa" }), docVqaSample());
    expect(env.taskTypes()).toEqual(["form", "free_text", "handwritten|form", "layout", "table/list"]);
    expect(env.failureTaxonomy()).toEqual([
      "evidence_miss",
      "near_match_confusion",
      "normalization_error",
      "reading_error",
      "other",
    ]);
    expect(createDocVqaEnv(buildRunConfig({ name: "docvqa" }), { train: [], val: [], test: [] }).taskTypes()).toEqual([
      "docvqa",
    ]);
  });
});
