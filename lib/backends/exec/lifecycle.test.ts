import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stopRunOf } from "../../engine/ports";
import { createClaudeCodeExecClient, createCodexExecClient, type ExecSettings } from "./index";
import {
  FAKE_CLAUDE,
  FAKE_CODEX,
  fakeEnv,
  hangPids,
  makeScratch,
  survivors,
  targetRequest,
  workspacesLeft,
  type Scratch,
} from "./test-helpers";

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

const CLIS = [
  { label: "codex-exec", bin: FAKE_CODEX, create: createCodexExecClient },
  { label: "claude-code-exec", bin: FAKE_CLAUDE, create: createClaudeCodeExecClient },
] as const;

describe.each(CLIS)("$label process lifecycle", ({ label, bin, create }) => {
  const client = (env: Record<string, string>, over: Partial<ExecSettings> = {}) =>
    create({ bin, workRoot: scratch.workRoot, env: fakeEnv(scratch, env), ...over });

  it("kills the CLI and everything it started when the timeout passes", async () => {
    const started = Date.now();
    const err = await client({ FAKE_EXEC_MODE: "hang" }, { timeoutMs: 1500 })
      .complete(targetRequest())
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500 + 3000);
    expect((err as Error).message).toMatch(new RegExp(`^${label}: timed out after 1\\.5 s`));
    expect(stopRunOf(err)).toBeNull();
    const { pid, childPid } = await hangPids(scratch);
    expect(await survivors([pid, childPid])).toEqual([]);
    expect(workspacesLeft(scratch)).toEqual([]);
  });

  it("kills the CLI when the request is aborted, and refuses to start after an abort", async () => {
    const ctrl = new AbortController();
    const run = client({ FAKE_EXEC_MODE: "hang" }).complete(targetRequest({ signal: ctrl.signal }));
    const { pid, childPid } = await hangPids(scratch);
    ctrl.abort();
    const err = await run.catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "AbortError", message: `${label}: aborted` });
    expect(stopRunOf(err)).toBeNull();
    expect(await survivors([pid, childPid])).toEqual([]);
    expect(workspacesLeft(scratch)).toEqual([]);
    await expect(client({}).complete(targetRequest({ signal: ctrl.signal }))).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("stops the run with an install hint when the binary is missing from PATH", async () => {
    const c = create({ workRoot: scratch.workRoot, env: { PATH: scratch.dir } });
    const err = await c.complete(targetRequest()).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("fail");
    expect((err as Error).message).toMatch(/npm i -g @(openai\/codex|anthropic-ai\/claude-code)/);
    expect(workspacesLeft(scratch)).toEqual([]);
  });
});

describe("a CLI that leaves a process holding its output open", () => {
  it("still returns the answer shortly after the CLI exits", async () => {
    const c = createCodexExecClient({
      bin: FAKE_CODEX,
      workRoot: scratch.workRoot,
      env: fakeEnv(scratch, { FAKE_EXEC_MODE: "daemon" }),
    });
    const started = Date.now();
    try {
      const res = await c.complete(targetRequest());
      expect(res.text).toBe("<answer>fake answer</answer>");
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      const { childPid } = await hangPids(scratch);
      process.kill(childPid, "SIGKILL");
    }
  });
});
