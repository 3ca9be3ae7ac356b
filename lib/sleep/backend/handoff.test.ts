import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../fs-safe";
import { PromptRegistry } from "../prompts";
import { removeTempDirs, tempDir, writeText } from "../test-helpers";
import { makeTask } from "../types";
import { HandoffClient, PENDING_PREFIX } from "./handoff";
import { ModelBackend } from "./model";
import { PendingCalls } from "./types";

afterAll(removeTempDirs);

const ask = (c: HandoffClient, prompt: string) =>
  c.complete({
    role: "target",
    stage: "attempt",
    system: "",
    messages: [{ role: "user", content: prompt }],
    maxTokens: 512,
  });

describe("handoff client", () => {
  it("records an unanswered prompt as pending and returns a placeholder; an answer file answers it", async () => {
    const dir = tempDir();
    const c = new HandoffClient(dir);
    const r = await ask(c, "What is 2+2?");
    const id = sha256Hex("What is 2+2?").slice(0, 16);
    expect(r.text).toBe(`${PENDING_PREFIX}${id}]]`);
    expect(c.pendingCount()).toBe(1);
    writeText(join(dir, "answers", `${id}.md`), "  4\n");
    expect((await ask(new HandoffClient(dir), "What is 2+2?")).text).toBe("4");
  });

  it("a prompt built from a placeholder stops the pass", async () => {
    const c = new HandoffClient(tempDir());
    const placeholder = (await ask(c, "first")).text;
    await expect(ask(c, `judge this: ${placeholder}`)).rejects.toBeInstanceOf(PendingCalls);
  });

  it("writes pending.json and PROMPTS.md (prompts redacted, each between marker lines)", async () => {
    const dir = tempDir();
    const c = new HandoffClient(dir);
    await ask(c, "Use key sk-abcdefghijklmnop1234 to answer");
    const path = c.flush();
    const pending = JSON.parse(readFileSync(join(dir, "pending.json"), "utf8"));
    expect(pending).toMatchObject({
      format: "skillopt_sleep.handoff.v1",
      answers_dir: join(dir, "answers"),
      pending: [{ max_tokens: 512, prompt: "Use key [REDACTED_OPENAI_KEY] to answer" }],
    });
    expect(pending.pending[0].answer_file).toBe(join(dir, "answers", `${pending.pending[0].id}.md`));
    const md = readFileSync(path, "utf8");
    expect(md).toContain(
      `----- BEGIN PROMPT ${pending.pending[0].id} -----\nUse key [REDACTED_OPENAI_KEY] to answer\n----- END PROMPT ${pending.pending[0].id} -----`,
    );
    expect(existsSync(join(dir, "answers"))).toBe(true);
  });

  it("through the backend: a reflect whose first reply is pending stops instead of retrying", async () => {
    const c = new HandoffClient(tempDir());
    const b = new ModelBackend({
      name: "handoff",
      target: c,
      optimizer: c,
      prompts: new PromptRegistry(null),
      pendingCount: () => c.pendingCount(),
    });
    const t = makeTask({ id: "t", intent: "do it" });
    const fail = {
      id: "t",
      hard: 0,
      soft: 0,
      response: "x",
      failReason: "no",
      taskType: "task",
      judgeRationale: "no",
      toolsCalled: [],
      tokens: 0,
      latencyMs: 0,
    };
    await expect(
      b.reflect({ failures: [[t, fail]], successes: [], skill: "", memory: "", editBudget: 2, target: "skill" }),
    ).rejects.toBeInstanceOf(PendingCalls);
    expect(b.pendingCount()).toBe(1);
  });
});
