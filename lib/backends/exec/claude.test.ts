import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stopRunOf } from "../../engine/ports";
import { claudeEffort, summariseClaudeRun } from "./claude";
import { createClaudeCodeExecClient, type ExecCompletionResult, type ExecSettings } from "./index";
import {
  FAKE_CLAUDE,
  INSTRUCTIONS,
  QUESTION,
  SKILL,
  fakeEnv,
  makeScratch,
  readRuns,
  targetRequest,
  workspacesLeft,
  type Scratch,
} from "./test-helpers";
import { skillBodyOf } from "./workspace";

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

function client(env: Record<string, string> = {}, over: Partial<ExecSettings> = {}) {
  return createClaudeCodeExecClient({
    bin: FAKE_CLAUDE,
    workRoot: scratch.workRoot,
    env: fakeEnv(scratch, env),
    ...over,
  });
}

describe("claude-code-exec with the fake Claude Code CLI", () => {
  it("installs the skill and the task, runs claude -p in the workspace and reads the result object", async () => {
    const c = client(
      { FAKE_EXEC_ANSWER: "<answer>Danube</answer>" },
      { model: "claude-fake", reasoningEffort: "xhigh" },
    );
    const res = (await c.complete(targetRequest())) as ExecCompletionResult;
    expect(res).toMatchObject({
      text: "<answer>Danube</answer>",
      usage: { promptTokens: 1200, completionTokens: 40 },
      cached: false,
    });
    expect(c).toMatchObject({ backend: "claude-code-exec", model: "claude-fake" });
    const [run] = readRuns(scratch);
    expect(skillBodyOf(run!.skill).trimEnd()).toBe(SKILL);
    expect(run!.task).toContain(INSTRUCTIONS);
    expect(run!.task).toContain(QUESTION);
    expect(run!.stdin).toContain("Do not create, modify or delete any file.");
    const argv = run!.argv.join(" ");
    expect(argv).toContain("-p --output-format json --verbose --permission-mode bypassPermissions");
    expect(argv).toContain(`--add-dir ${run!.cwd} --allowedTools Read,Bash`);
    expect(argv).toContain("--model claude-fake --effort max");
    expect(res.trace).toContain(`read ${run!.cwd}/task.md`);
    expect(res.trace).toContain("opened task.md: yes · opened SKILL.md: yes");
    expect(res.trace).toContain("cost $0.0123");
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("counts no tokens when the result has no usage", async () => {
    const res = await client({ FAKE_EXEC_MODE: "no_usage" }).complete(targetRequest());
    expect(res.usage).toEqual({ promptTokens: 0, completionTokens: 0 });
  });

  it("retries an empty result once with a note, then fails", async () => {
    await expect(client({ FAKE_EXEC_MODE: "empty" }).complete(targetRequest())).rejects.toThrow(
      /claude-code-exec: empty final answer after 2/,
    );
    const runs = readRuns(scratch);
    expect(runs.map((r) => /previous attempt ended with an empty final response/.test(r.stdin))).toEqual([false, true]);
    const ok = await client({ FAKE_EXEC_MODE: "empty_once" }).complete(targetRequest());
    expect(ok.text).toBe("<answer>fake answer</answer>");
  });

  it("reports is_error, a failed exit and unreadable output as plain errors", async () => {
    const cases: Array<[string, RegExp]> = [
      ["error_event", /^claude-code-exec: API Error: 529 overloaded_error$/],
      ["fail", /^claude-code-exec: exited with code 1: Invalid API key/],
      ["not_json", /^claude-code-exec: the CLI printed no result object$/],
    ];
    for (const [mode, message] of cases) {
      const err = await client({ FAKE_EXEC_MODE: mode })
        .complete(targetRequest())
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(message);
      expect(stopRunOf(err)).toBeNull();
    }
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("reads the result object printed without --verbose, and JSON lines", () => {
    const result = {
      type: "result",
      subtype: "success",
      is_error: false,
      result: "<answer>x</answer>",
      num_turns: 1,
      usage: { input_tokens: 5, output_tokens: 2 },
    };
    const single = summariseClaudeRun({ code: 0, signal: null, stdout: JSON.stringify(result), stderr: "" });
    expect(single).toMatchObject({
      answer: "<answer>x</answer>",
      promptTokens: 5,
      completionTokens: 2,
      failure: undefined,
    });
    const lines = [{ type: "system", subtype: "init" }, result].map((e) => JSON.stringify(e)).join("\n");
    expect(summariseClaudeRun({ code: 0, signal: null, stdout: lines, stderr: "" }).answer).toBe("<answer>x</answer>");
    const bad = summariseClaudeRun({
      code: 0,
      signal: null,
      stdout: JSON.stringify({ ...result, is_error: true, result: "", subtype: "error_max_turns" }),
      stderr: "",
    });
    expect(bad.failure).toBe("error result (error_max_turns)");
  });

  it("maps the reasoning effort to Claude Code's --effort", () => {
    expect(claudeEffort(undefined)).toBeUndefined();
    expect(claudeEffort("none")).toBeUndefined();
    expect(claudeEffort("OFF")).toBeUndefined();
    expect(claudeEffort("xhigh")).toBe("max");
    expect(claudeEffort("medium")).toBe("medium");
  });
});
