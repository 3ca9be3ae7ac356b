import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CompletionRequest, RolloutInput } from "../../engine/ports";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient, type FakeReply } from "../test-helpers";
import { createOfficeQaEnv } from "./index";

const rootDir = process.cwd();
const item: Item = {
  id: "oq-x",
  question: "According to the June 2024 Treasury Bulletin, what was the reserve fund balance, in millions of dollars?",
  ground_truth: "19.6",
  answers: ["19.6"],
  task_type: "hard",
  source_files: ["treasury_bulletin_2024_06.md"],
  source_docs: ["https://example.org/bulletin-2024-06.pdf?page=2"],
};
const call = (name: string, args: Record<string, unknown>) =>
  `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const lastUser = (req: CompletionRequest) => String(req.messages.at(-1)?.content);

function run(
  script: (req: CompletionRequest, n: number) => FakeReply,
  env: Record<string, unknown> = {},
  extra: Partial<RolloutInput> = {},
) {
  const client = fakeClient(script);
  const config = buildRunConfig({
    name: "officeqa",
    split_mode: "sample",
    exec_timeout: 0.05,
    max_tool_turns: 4,
    ...env,
  });
  const environment = createOfficeQaEnv(config, undefined, { rootDir, vars: {} });
  const input: RolloutInput = {
    item,
    skill: "# Skill\n- rescale units",
    client,
    phase: "train",
    seed: 1,
    useEvalFeedback: true,
    ...extra,
  };
  return { client, promise: environment.rollout(input) };
}

describe("OfficeQA tool loop", () => {
  it("runs tool call → result → answer and records the whole conversation", async () => {
    const { client, promise } = run(
      (req, n) =>
        n === 0
          ? `Searching.\n${call("grep", { pattern: "reserve fund", path: "treasury_bulletin_2024_06.md" })}`
          : n === 1
            ? call("read", { path: "treasury_bulletin_2024_06.md", start: 22, limit: 4 })
            : "The table says 19.6.\n<answer>19.6</answer>",
      { max_tool_turns: 3 },
    );
    const t = await promise;
    expect(t).toMatchObject({
      id: "oq-x",
      status: "ok",
      hard: 1,
      soft: 1,
      prediction: "19.6",
      reference: "19.6",
      taskType: "hard",
      nTurns: 3,
      promptTokens: 300,
    });
    expect(t.extras).toMatchObject({
      tool_calls: 2,
      malformed_tool_calls: 0,
      use_local_tools: true,
      resolved_source_paths: ["treasury_bulletin_2024_06.md"],
    });
    const first = client.calls[0]!;
    expect(first.system).toContain("<tool_call>");
    expect(first.system).toContain("\n## Skill\n# Skill\n- rescale units\n## End of Skill\n");
    expect(t.targetSystemPrompt).toBe(first.system);
    expect(first.messages[0]?.content).toBe(
      `## Question\n${String(item.question)}\n\n## Candidate files\n- treasury_bulletin_2024_06.md\n\n## Source hints\n- source file: treasury_bulletin_2024_06.md\n- source document: https://example.org/bulletin-2024-06.pdf?page=2`,
    );
    expect(lastUser(client.calls[1]!)).toContain(
      '<tool_result name="grep" call="1">\n25: | Reserve fund           |         19.6 |\n</tool_result>',
    );
    expect(lastUser(client.calls[2]!)).toContain("treasury_bulletin_2024_06.md (lines 22-25 of");
    expect(lastUser(client.calls[2]!)).toContain("This is your last round");
    expect(t.conversation).toHaveLength(7);
    expect(t.conversation.at(-1)).toEqual({
      role: "system",
      content: `[EVALUATION RESULT] question: ${String(item.question)} | predicted: 19.6 | gold: ['19.6'] | EM=1, F1=1.000`,
    });
  });

  it("sends a malformed call back as an error result, counts it, and goes on", async () => {
    const { client, promise } = run((_, n) =>
      n === 0 ? "<tool_call>{grep: reserve}</tool_call>" : "<answer>18.9</answer>",
    );
    const t = await promise;
    expect(lastUser(client.calls[1]!)).toContain(
      '<tool_result name="invalid" call="1">\nerror: the tool call is not valid JSON',
    );
    expect(t).toMatchObject({
      status: "ok",
      hard: 0,
      prediction: "18.9",
      failReason: "EM=0: predicted '18.9' but expected ['19.6']",
    });
    expect(t.extras).toMatchObject({ malformed_tool_calls: 1, tool_calls: 0 });
  });

  it("refuses a path outside the source files without crashing", async () => {
    const { client, promise } = run((_, n) =>
      n === 0
        ? call("read", { path: "../../../package.json" }) + call("read", { path: "budget_adopted_fy2025.md" })
        : "<answer>19.6</answer>",
    );
    expect((await promise).hard).toBe(1);
    const results = lastUser(client.calls[1]!);
    expect(results).toContain("error: path '../../../package.json' leaves the document folders");
    expect(results).toContain(
      "error: 'budget_adopted_fy2025.md' is not one of this question's source files (treasury_bulletin_2024_06.md)",
    );
  });

  it("fails a reply with neither tool request nor answer", async () => {
    const t = await run(() => "Let me think about this carefully.").promise;
    expect(t).toMatchObject({ status: "ok", hard: 0, soft: 0, prediction: "", nTurns: 1 });
    expect(t.failReason).toBe("neither tool request nor answer in round 1 (expected ['19.6'])");
  });

  it("fails when the rounds run out, with the reason", async () => {
    const { client, promise } = run(() => call("glob", { pattern: "*" }), { max_tool_turns: 3 });
    const t = await promise;
    expect(client.calls).toHaveLength(3);
    expect(t).toMatchObject({ status: "ok", hard: 0, nTurns: 3 });
    expect(t.failReason).toBe("no answer within 3 rounds (the budget max_tool_turns is exhausted) (expected ['19.6'])");
  });

  it("an answer tag ends the loop even next to a tool call; the FIRST tag counts", async () => {
    const { client, promise } = run(
      () => `${call("glob", { pattern: "*" })}<answer>19.6</answer> or maybe <answer>18.9</answer>`,
    );
    expect(await promise).toMatchObject({ hard: 1, prediction: "19.6" });
    expect(client.calls).toHaveLength(1);
  });

  it("turns a failing call into an error trajectory that keeps the conversation so far", async () => {
    const t = await run((_, n) => (n === 0 ? call("glob", { pattern: "*" }) : new Error("HTTP 500\nupstream"))).promise;
    expect(t).toMatchObject({ status: "error", hard: 0, soft: 0, failReason: "error: HTTP 500 upstream", nTurns: 1 });
    expect(t.conversation).toHaveLength(4);
    expect(t.extras).toMatchObject({ tool_calls: 1 });
  });

  it("times out a hanging call", async () => {
    expect(await run(() => "hang").promise).toMatchObject({
      status: "timeout",
      failReason: "timeout: no answer within 0.05s",
    });
    expect(await run(() => "hang-ignoring-signal").promise).toMatchObject({ status: "timeout", hard: 0 });
  });

  it("rejects when the run is cancelled", async () => {
    const controller = new AbortController();
    const { promise } = run(() => "hang", { exec_timeout: 0 }, { signal: controller.signal });
    controller.abort(new Error("run cancelled"));
    await expect(promise).rejects.toThrow("run cancelled");
  });

  it("returns an error trajectory naming a missing field, without calling the model", async () => {
    const client = fakeClient(() => "<answer>x</answer>");
    const env = createOfficeQaEnv(buildRunConfig({ name: "officeqa", split_mode: "sample" }), undefined, {
      rootDir,
      vars: {},
    });
    const t = await env.rollout({
      item: { id: "b", question: "Q?", source_files: [] },
      skill: "",
      client,
      phase: "test",
      seed: 0,
      useEvalFeedback: false,
    });
    expect(t).toMatchObject({ status: "error", failReason: "error: item is missing field 'answers'" });
    expect(client.calls).toHaveLength(0);
  });

  it("without local tools makes one call with the hints only", async () => {
    const { client, promise } = run(() => "Probably <answer>19.6</answer>", { use_local_tools: false });
    expect(await promise).toMatchObject({ hard: 1, nTurns: 1 });
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.system).not.toContain("<tool_call>");
    expect(client.calls[0]?.messages[0]?.content).not.toContain("## Candidate files");
    expect(client.calls[0]?.messages[0]?.content).toContain("## Source hints");
  });
});

describe("OfficeQA environment creation", () => {
  it("fails early for a missing corpus, naming what it tried", () => {
    const config = buildRunConfig({ name: "officeqa", split_mode: "split_dir", split_dir: "x", data_dirs: ["docs"] });
    expect(() =>
      createOfficeQaEnv(config, undefined, { rootDir: "/nonexistent", vars: { OFFICEQA_DOCS_DIR: "/also/missing" } }),
    ).toThrow(
      "officeqa: no document corpus found; tried /nonexistent/docs, /also/missing, /nonexistent/data/officeqa_docs_official, /nonexistent/data/officeqa_smoke_docs",
    );
  });

  it("uses OFFICEQA_DOCS_DIR from the context", () => {
    const config = buildRunConfig({ name: "officeqa", split_mode: "split_dir", split_dir: "x" });
    const docs = path.join(rootDir, "lib/envs/officeqa/sample/docs");
    expect(
      createOfficeQaEnv(config, undefined, { rootDir: "/nonexistent", vars: { OFFICEQA_DOCS_DIR: docs } }).name,
    ).toBe("officeqa");
  });

  it("refuses azure_search in one line, pointing at the modes that work", () => {
    const config = buildRunConfig({ name: "officeqa", split_mode: "sample", search_mode: "azure" });
    expect(() => createOfficeQaEnv(config, undefined, { rootDir, vars: {} })).toThrow(
      "officeqa: env.search_mode 'azure_search' is not available in this version; use offline (local document tools) or custom_search",
    );
  });

  it("lists the task types and the failure taxonomy", () => {
    const env = createOfficeQaEnv(buildRunConfig({ name: "officeqa", split_mode: "sample" }), undefined, {
      rootDir,
      vars: {},
    });
    expect(env.taskTypes()).toEqual(["easy", "hard"]);
    expect(env.failureTaxonomy()).toEqual([
      "retrieval_miss",
      "evidence_miss",
      "operand_error",
      "calculation_error",
      "answer_format",
      "other",
    ]);
  });
});
