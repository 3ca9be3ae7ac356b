import { describe, expect, it } from "vitest";
import type { ModelClient } from "../../engine/ports";
import { PromptRegistry } from "../prompts";
import { ScriptedClient } from "../test-helpers";
import { makeTask, type ReplayResult, type TaskRecord } from "../types";
import { ModelBackend } from "./model";
import { JSON_RETRY_NOTE } from "./reflect-prompt";
import { SleepBackendError } from "./types";

const prompts = new PromptRegistry(null);
const backendOf = (target: ModelClient, optimizer: ModelClient = target) =>
  new ModelBackend({ name: "fake", target, optimizer, prompts });
const result = (id: string, response: string, failReason: string): ReplayResult => ({
  id,
  hard: 0,
  soft: 0,
  response,
  failReason,
  taskType: "task",
  judgeRationale: failReason,
  toolsCalled: [],
  tokens: 0,
  latencyMs: 0,
});

describe("ModelBackend", () => {
  it("renders the attempt prompt with skill, memory, intent and context, and answers repeats from its cache", async () => {
    const c = new ScriptedClient("fake", "m", () => "the answer");
    const b = backendOf(c);
    const t = makeTask({ id: "t", intent: "Write a haiku", contextExcerpt: "about rain" });
    expect(await b.attempt(t, "SKILL TEXT", "")).toBe("the answer");
    expect(await b.attempt(t, "SKILL TEXT", "")).toBe("the answer");
    await b.attempt(t, "SKILL TEXT", "", 1);
    expect(c.requests).toHaveLength(2);
    expect(c.requests[0]).toMatchObject({ role: "target", stage: "attempt", maxTokens: 512 });
    const p = c.prompts()[0]!;
    expect(p).toContain("# Skill\nSKILL TEXT\n\n# Memory\n(none)\n\n# Task\nWrite a haiku\n\nabout rain");
    expect(b.tokensUsed()).toBe(30);
  });

  it("uses a benchmark task's own system prompt verbatim, filling {skill_section}", async () => {
    const c = new ScriptedClient("fake", "m", () => "x");
    const t = makeTask({ id: "t", intent: "Q?", system: "You answer.\n{skill_section}Reply in tags.\n" });
    await backendOf(c).attempt(t, "Be brief.", "Prefers tags.");
    expect(c.prompts()[0]).toBe("You answer.\n## Skill\nBe brief.\n\nReply in tags.\n## Memory\nPrefers tags.\n\n\nQ?");
  });

  it("routes rollouts to the target and judging/reflection to the optimizer (dual setup)", async () => {
    const target = new ScriptedClient("t-backend", "t-model", () => "draft");
    const optimizer = new ScriptedClient("o-backend", "o-model", (p) =>
      p.includes("Rate from 0 to 1") ? '{"score": 0.9, "reason": "good"}' : "[]",
    );
    const b = backendOf(target, optimizer);
    const t = makeTask({ id: "t", intent: "Explain X", referenceKind: "rubric", reference: "mentions Y" });
    const r = await b.attempt(t, "", "");
    expect(await b.judge(t, r)).toEqual({ hard: 1, soft: 0.9, rationale: "good" });
    expect(target.requests.map((q) => q.role)).toEqual(["target"]);
    expect(optimizer.requests.map((q) => q.role)).toEqual(["optimizer"]);
    expect(b.key()).toBe("optimizer=o-backend::o-model;target=t-backend::t-model");
    expect(b.model).toBe("target=t-model/optimizer=o-model");
  });

  it("judges rule and exact tasks locally, and scores an unparseable rubric reply 0", async () => {
    const c = new ScriptedClient("fake", "m", () => "no json here");
    const b = backendOf(c);
    expect(
      await b.judge(makeTask({ id: "a", intent: "i", referenceKind: "exact", reference: "Add X" }), "Add X"),
    ).toMatchObject({ hard: 1, rationale: "exact(local)" });
    expect(
      await b.judge(
        makeTask({ id: "b", intent: "i", referenceKind: "rule", judge: { checks: [{ op: "contains", arg: "x" }] } }),
        "x",
      ),
    ).toMatchObject({ hard: 1 });
    expect(c.requests).toHaveLength(0);
    expect(await b.judge(makeTask({ id: "c", intent: "i", referenceKind: "rubric", reference: "r" }), "resp")).toEqual({
      hard: 0,
      soft: 0,
      rationale: "judge-parse-failed",
    });
  });

  it("reflect: failures, explained criteria and preferences in the prompt; one stricter retry; edits cut to the budget", async () => {
    const replies = [
      "I think you should be clearer.",
      '[{"op":"add","content":"Keep the whole answer under 300 characters."},{"op":"replace","content":"B","anchor":"A"},{"op":"add","content":""}]',
    ];
    const c = new ScriptedClient("fake", "m", () => replies.shift()!);
    const b = backendOf(c);
    b.preferences = "Prefer British spelling.";
    const t: TaskRecord = makeTask({ id: "t", intent: "Summarise the PR" });
    const edits = await b.reflect({
      failures: [[t, result("t", "a very long summary", "failed: max_chars=300")]],
      successes: [],
      skill: "S",
      memory: "",
      editBudget: 2,
      target: "skill",
    });
    expect(edits).toEqual([
      { target: "skill", op: "add", content: "Keep the whole answer under 300 characters.", anchor: "", rationale: "" },
      { target: "skill", op: "replace", content: "B", anchor: "A", rationale: "" },
    ]);
    const [first, second] = c.prompts();
    expect(first).toContain(
      "- wanted: Summarise the PR\n  got: a very long summary\n  why-wrong: failed: max_chars=300",
    );
    expect(first).toContain("- the ENTIRE response must be at most 300 characters long  [max_chars=300, failed 1x]");
    expect(first).toContain("Prefer British spelling.");
    expect(second).toBe(first + JSON_RETRY_NOTE);
    expect(b.lastReflectRaw).toContain("Keep the whole answer");
    expect(
      await b.reflect({ failures: [], successes: [], skill: "", memory: "", editBudget: 2, target: "skill" }),
    ).toEqual([]);
  });

  it("an ordinary call failure becomes an empty answer with the error kept; an unusable backend stops the night", async () => {
    const flaky: ModelClient = {
      backend: "flaky",
      model: "m",
      complete: async () => {
        throw new Error("503 upstream");
      },
    };
    const b = backendOf(flaky);
    expect(await b.attempt(makeTask({ id: "t", intent: "i" }), "", "")).toBe("");
    expect(b.lastCallError).toBe("flaky (target): 503 upstream");
    const dead: ModelClient = {
      backend: "dead",
      model: "m",
      complete: async () => {
        throw Object.assign(new Error("401 bad key"), { stopRun: "fail" });
      },
    };
    await expect(backendOf(dead).attempt(makeTask({ id: "t", intent: "i" }), "", "")).rejects.toBeInstanceOf(
      SleepBackendError,
    );
  });

  it("without a tool runner, tool tasks read the TOOL_CALL marker", async () => {
    const c = new ScriptedClient("fake", "m", () => "TOOL_CALL: search\nfound it");
    expect(await backendOf(c).attemptWithTools(makeTask({ id: "t", intent: "i" }), "", "", ["search", "calc"])).toEqual(
      { response: "TOOL_CALL: search\nfound it", called: ["search"] },
    );
  });
});
