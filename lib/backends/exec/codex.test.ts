import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stopRunOf } from "../../engine/ports";
import { createCodexExecClient, type ExecCompletionResult, type ExecSettings } from "./index";
import {
  FAKE_CODEX,
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
  return createCodexExecClient({ bin: FAKE_CODEX, workRoot: scratch.workRoot, env: fakeEnv(scratch, env), ...over });
}

describe("codex-exec with the fake Codex CLI", () => {
  it("installs the skill and the task, runs codex exec and reads the answer, usage and trace", async () => {
    const c = client({ FAKE_EXEC_ANSWER: "<answer>Danube</answer>" }, { model: "gpt-fake", reasoningEffort: "low" });
    const res = (await c.complete(targetRequest())) as ExecCompletionResult;
    expect(res).toMatchObject({
      text: "<answer>Danube</answer>",
      usage: { promptTokens: 1200, completionTokens: 34 },
      cached: false,
    });
    expect(res.latencyMs).toBeGreaterThanOrEqual(0);
    const [run] = readRuns(scratch);
    expect(skillBodyOf(run!.skill).trimEnd()).toBe(SKILL);
    expect(run!.skill).toMatch(/^---\nname: skillopt-target\n/);
    expect(run!.task).toContain(INSTRUCTIONS);
    expect(run!.task).toContain(QUESTION);
    expect(run!.task).not.toContain("## Skill");
    expect(run!.stdin).toContain("task.md");
    expect(run!.stdin).toContain(".agents/skills/skillopt-target/SKILL.md");
    expect(run!.argv).toEqual(
      expect.arrayContaining(["--json", "--skip-git-repo-check", 'approval_policy="never"', "-"]),
    );
    expect(run!.argv.join(" ")).toContain("--sandbox read-only");
    expect(run!.argv.join(" ")).toContain("-m gpt-fake");
    expect(run!.argv.join(" ")).toContain('model_reasoning_effort="low"');
    expect(run!.argv.join(" ")).toContain(`-C ${run!.cwd}`);
    expect(run!.envKeys).toEqual(["FAKE_EXEC_ANSWER", "FAKE_EXEC_LOG", "FAKE_EXEC_PID_FILE", "HOME", "PATH"]);
    expect(res.trace).toContain("$ bash -lc 'cat task.md' → exit 0");
    expect(res.trace).toContain("read task.md: yes · read SKILL.md: yes");
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("writes image parts as attachments, lists them and passes them with -i", async () => {
    const png = Buffer.from("fake-png-bytes").toString("base64");
    const req = targetRequest({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: QUESTION },
            { type: "image", mediaType: "image/png", dataBase64: png },
          ],
        },
      ],
    });
    await client().complete(req);
    const [run] = readRuns(scratch);
    expect(run!.attachments).toEqual([{ name: "01_image.png", base64: png }]);
    expect(run!.attachmentsMd).toContain("attachments/01_image.png (image/png)");
    expect(run!.task).toContain("[image: attachments/01_image.png]");
    expect(run!.argv.slice(0, 3)).toEqual(["exec", "-i", join(run!.cwd, "attachments/01_image.png")]);
    expect(run!.stdin).toContain("ATTACHMENTS.md");
  });

  it("falls back to the last agent_message and counts no usage when the CLI reports none", async () => {
    const a = await client({ FAKE_EXEC_MODE: "no_last_message", FAKE_EXEC_ANSWER: "<answer>42</answer>" }).complete(
      targetRequest(),
    );
    expect(a.text).toBe("<answer>42</answer>");
    const b = await client({ FAKE_EXEC_MODE: "no_usage" }).complete(targetRequest());
    expect(b.usage).toEqual({ promptTokens: 0, completionTokens: 0 });
  });

  it("retries an empty answer with a note, then fails", async () => {
    const err = await client({ FAKE_EXEC_MODE: "empty" })
      .complete(targetRequest())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/empty final answer after 2 attempt/);
    expect(stopRunOf(err)).toBeNull();
    const runs = readRuns(scratch);
    expect(runs).toHaveLength(2);
    expect(runs[0]!.stdin).not.toMatch(/previous attempt/);
    expect(runs[1]!.stdin).toMatch(/previous attempt ended with an empty final response/);
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("answers on the retry and sums the usage of both runs", async () => {
    const res = await client({ FAKE_EXEC_MODE: "empty_once" }).complete(targetRequest());
    expect(res.text).toBe("<answer>fake answer</answer>");
    expect(res.usage).toEqual({ promptTokens: 2400, completionTokens: 68 });
    const none = client({ FAKE_EXEC_MODE: "empty_once" }, { emptyResponseRetries: 0 });
    await expect(none.complete(targetRequest())).rejects.toThrow(/after 1 attempt/);
  });

  it("reports a non-zero exit as a plain error with the CLI's message, secrets redacted", async () => {
    const err = await client({ FAKE_EXEC_MODE: "fail" })
      .complete(targetRequest())
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^codex-exec: exited with code 1: Error: unexpected status 401/);
    expect((err as Error).message).not.toContain("sk-fake-0123456789abcdef");
    expect(stopRunOf(err)).toBeNull();
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("treats turn.failed as a failure even when the exit status is 0", async () => {
    for (const exit of ["1", "0"]) {
      const err = await client({ FAKE_EXEC_MODE: "error_event", FAKE_EXEC_EXIT: exit })
        .complete(targetRequest())
        .catch((e: unknown) => e);
      expect((err as Error).message).toBe("codex-exec: fake turn failure: model overloaded");
      expect(stopRunOf(err)).toBeNull();
      expect((err as { trace?: string }).trace).toContain("error event: stream error");
    }
  });

  it("accepts a turn that completed after a reconnect error event", async () => {
    const res = (await client({ FAKE_EXEC_MODE: "reconnect" }).complete(targetRequest())) as ExecCompletionResult;
    expect(res.text).toBe("<answer>fake answer</answer>");
    expect(res.trace).toContain("error event: Reconnecting... 1/5");
  });

  it("redacts secrets in the trace", async () => {
    const env = {
      FAKE_EXEC_EXTRA_COMMAND: "curl -H 'Authorization: Bearer abcdefghijklmnop' https://x",
      OPENAI_API_KEY: "my-own-key-123",
    };
    const res = (await client({
      ...env,
      FAKE_EXEC_EXTRA_COMMAND: `${env.FAKE_EXEC_EXTRA_COMMAND} my-own-key-123`,
    }).complete(targetRequest())) as ExecCompletionResult;
    expect(res.trace).toContain("Bearer [redacted]");
    expect(res.trace).not.toContain("abcdefghijklmnop");
    expect(res.trace).not.toContain("my-own-key-123");
  });

  it("stops the run when the binary is missing", async () => {
    const c = createCodexExecClient({
      bin: join(scratch.dir, "no-such-codex"),
      workRoot: scratch.workRoot,
      env: fakeEnv(scratch),
    });
    const err = await c.complete(targetRequest()).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("fail");
    expect((err as Error).message).toContain("no-such-codex");
    expect((err as Error).message).toContain("npm i -g @openai/codex");
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("keeps the workspace with the raw output and the trace when asked", async () => {
    await client({}, { keepWorkspace: true }).complete(targetRequest());
    const [dir] = workspacesLeft(scratch);
    const ws = join(scratch.workRoot, dir!);
    expect(readFileSync(join(ws, ".skillopt_last_message.txt"), "utf8")).toBe("<answer>fake answer</answer>");
    expect(readFileSync(join(ws, ".skillopt_trace.txt"), "utf8")).toContain("codex-exec · sandbox read-only");
    expect(readFileSync(join(ws, ".skillopt_stdout.txt"), "utf8")).toContain('"turn.completed"');
    expect(existsSync(join(ws, "task.md"))).toBe(true);
  });

  it("passes the workspace-write sandbox and rejects settings no run could use", async () => {
    await client({}, { sandbox: "workspace-write" }).complete(targetRequest());
    const [run] = readRuns(scratch);
    expect(run!.argv.join(" ")).toContain("--sandbox workspace-write");
    expect(run!.stdin).toContain("Create or modify files only inside this directory");
    expect(() => client({}, { sandbox: "danger-full-access" as never })).toThrow(/sandbox/);
    expect(() => client({}, { timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => client({}, { reasoningEffort: 'high" -c x="y' })).toThrow(/reasoningEffort/);
  });
});
