import { afterAll, describe, expect, it } from "vitest";
import { ModelBackend } from "./backend/model";
import { readEvidence, EvidenceLog } from "./evidence";
import { sha256Hex } from "./fs-safe";
import { makeLlmMiner, sanitiseChecks, taskFromMined } from "./llm-miner";
import { PromptRegistry } from "./prompts";
import { digest, removeTempDirs, ScriptedClient, tempDir } from "./test-helpers";
import { join } from "node:path";

afterAll(removeTempDirs);

const d = digest({
  sessionId: "s1",
  project: "/p",
  userPrompts: ["How do I cite arXiv papers?", "use the id form"],
  assistantFinals: ["Cite as arXiv:1234.56789"],
  feedbackSignals: ["pos:thanks"],
  skillsUsed: ["citations"],
});

describe("LLM miner", () => {
  it("a non-empty rubric wins over literal checks", () => {
    const t = taskFromMined(d, {
      intent: "Cite an arXiv paper",
      rubric: "Gives the arXiv id in canonical form",
      checks: [{ op: "contains", arg: "arXiv:" }],
      satisfied: true,
    });
    expect(t).toMatchObject({
      id: `llm_${sha256Hex("/pCite an arXiv paper").slice(0, 12)}`,
      referenceKind: "rubric",
      reference: "Gives the arXiv id in canonical form",
      outcome: "success",
      tags: ["mined:llm"],
      sourceSessions: ["s1"],
      skillHint: "citations",
    });
  });

  it("without a rubric, keeps the well-formed checks as a rule judge; with neither, drops the task", () => {
    const t = taskFromMined(d, {
      intent: "Cite an arXiv paper",
      rubric: null,
      checks: [
        { op: "contains", arg: " arXiv: " },
        { op: "max_chars", arg: "300" },
      ],
      satisfied: false,
    });
    expect(t).toMatchObject({
      referenceKind: "rule",
      judge: {
        kind: "rule",
        checks: [
          { op: "contains", arg: "arXiv:" },
          { op: "max_chars", arg: 300 },
        ],
      },
      outcome: "fail",
    });
    expect(taskFromMined(d, { intent: "Cite an arXiv paper", checks: [{ op: "contains" }] })).toBeNull();
    expect(taskFromMined(d, { intent: "short", rubric: "r" })).toBeNull();
  });

  it("sanitises checks: string args for text ops (regex kept verbatim), integer bounds ≥ 0, no_refusal without arg", () => {
    expect(
      sanitiseChecks([
        { op: "regex", arg: " a+ " },
        { op: "contains", arg: "  x " },
        { op: "tool_called", arg: 3 },
        { op: "max_chars", arg: 1.5 },
        { op: "min_chars", arg: -2 },
        { op: "max_chars", arg: true },
        { op: "no_refusal", arg: "ignored" },
        { op: "mystery", arg: "x" },
        "junk",
      ]),
    ).toEqual([{ op: "regex", arg: " a+ " }, { op: "contains", arg: "x" }, { op: "no_refusal" }]);
  });

  it("asks the optimizer once per session (first 3 objects), logs the exchange, and stops at the task cap", async () => {
    const reply = JSON.stringify([
      { intent: "Cite an arXiv paper", rubric: "canonical id" },
      { intent: "Format a BibTeX entry", rubric: "valid bibtex" },
      { intent: "nothing checkable here" },
      { intent: "Fourth is ignored", rubric: "x" },
    ]);
    const client = new ScriptedClient("fake", "m", () => `Sure:\n${reply}`);
    const backend = new ModelBackend({
      name: "fake",
      target: client,
      optimizer: client,
      prompts: new PromptRegistry(null),
    });
    const path = join(tempDir(), "ev.jsonl");
    backend.evidence = new EvidenceLog(path, { maxChars: 4000, redact: true, now: () => 0 });
    const tasks = await makeLlmMiner(backend, new PromptRegistry(null), { maxSessions: 5, maxTasks: 10 })([
      d,
      { ...d, sessionId: "s2", userPrompts: [] },
    ]);
    expect(tasks.map((t) => t.intent)).toEqual(["Cite an arXiv paper", "Format a BibTeX entry"]);
    expect(client.requests).toHaveLength(1);
    expect(client.requests[0]).toMatchObject({ role: "optimizer", maxTokens: 800 });
    expect(client.prompts()[0]).toContain("  - How do I cite arXiv papers?\n  - use the id form");
    const ev = readEvidence(path).filter((e) => e.event === "miner_exchange");
    expect(ev[0]).toMatchObject({
      session_id: "s1",
      n_candidates: 3,
      n_tasks: 2,
      n_dropped_uncheckable: 1,
      parse_ok: true,
    });
    expect(await makeLlmMiner(backend, new PromptRegistry(null), { maxSessions: 5, maxTasks: 1 })([d])).toHaveLength(1);
  });
});
