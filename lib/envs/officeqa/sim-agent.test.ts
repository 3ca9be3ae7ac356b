import { describe, expect, it } from "vitest";
import { createSimClient } from "../../backends/sim";
import { loadSimKnowledge } from "../registry";
import { buildRunConfig } from "../test-helpers";
import { createOfficeQaEnv, officeQaSample } from "./index";

const rootDir = process.cwd();
const splits = officeQaSample();
const config = (env: Record<string, unknown> = {}) =>
  buildRunConfig({ name: "officeqa", split_mode: "sample", max_tool_turns: 6, ...env });
const knowledge = loadSimKnowledge(config(), splits);
const target = createSimClient({
  role: "target",
  knowledge,
  seed: 42,
  slipRate: 0,
  unhelpfulRate: 0,
  malformedRate: 0,
  latencyMs: 0,
});
const item = (id: string) => [...splits.train, ...splits.val, ...splits.test].find((i) => i.id === id)!;

async function roll(id: string, skill: string, env: Record<string, unknown> = {}) {
  const e = createOfficeQaEnv(config(env), splits, { rootDir, vars: {} });
  return e.rollout({ item: item(id), skill, client: target, phase: "train", seed: 1, useEvalFeedback: true });
}

describe("simulated OfficeQA agent", () => {
  it("greps the source file, reads around the hit, then answers with the characteristic wrong answer when unguided", async () => {
    const t = await roll(
      "oq-103",
      "# Skill\n- Report figures exactly as printed in the table, in the table's own units.",
    );
    expect(t).toMatchObject({ status: "ok", hard: 0, prediction: "62.4", nTurns: 3 });
    const assistant = t.conversation
      .filter((c) => typeof c === "object" && c.role === "assistant")
      .map((c) => String((c as { content: string }).content));
    expect(assistant[0]).toContain(
      '<tool_call>{"name":"grep","arguments":{"pattern":"Operating cash","path":"treasury_bulletin_2024_03.md"}}</tool_call>',
    );
    expect(assistant[1]).toContain('"name":"read"');
    const results = t.conversation
      .filter((c) => typeof c === "object" && String(c.content).includes("<tool_result"))
      .map((c) => String((c as { content: string }).content));
    expect(results[0]).toContain("| Operating cash         |          62.4 |");
    expect(results[1]).toContain("Amounts in millions of dollars.");
    expect(t.extras).toMatchObject({ tool_calls: 2, malformed_tool_calls: 0 });
  });

  it("answers correctly once the skill carries the rule", async () => {
    const t = await roll(
      "oq-103",
      "# Skill\n- Check the unit note of each table and rescale the figure to the unit the question asks for.",
    );
    expect(t).toMatchObject({ hard: 1, prediction: "62400" });
  });

  it("searches every file for a question without source files", async () => {
    const t = await roll("oq-113", "");
    expect(t).toMatchObject({ hard: 0, prediction: "18.9" });
    expect(JSON.stringify(t.conversation)).toContain("treasury_bulletin_2024_03.md:");
  });

  it("answers at once when local tools are off", async () => {
    const t = await roll("oq-101", "", { use_local_tools: false });
    expect(t).toMatchObject({ hard: 1, prediction: "3.80%", nTurns: 1 });
  });
});
