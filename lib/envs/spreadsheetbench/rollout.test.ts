import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Item, Trajectory } from "../../engine/types";
import { buildRunConfig, fakeClient, type FakeReply } from "../test-helpers";
import { createSpreadsheetEnv, spreadsheetSample } from "./index";
import { normaliseSpreadsheetRow } from "./normalise";
import solutions from "./sample/solutions.json";
import { removeTempDirs, tempDir, TEST_VARS } from "./test-fixtures";

const all = (() => {
  const s = spreadsheetSample();
  return [...s.train, ...s.val, ...s.test].map(
    (row, index) => normaliseSpreadsheetRow(row, { file: "sample", index }) as Item,
  );
})();
const byId = (id: string) => all.find((i) => i.id === id) as Item;
const code = (id: string, rule?: string) => {
  const s = (solutions as Record<string, { correct: string; wrong: Record<string, string> }>)[id]!;
  return `Here you go.\n\n\`\`\`python\n${rule ? s.wrong[rule] : s.correct}\`\`\``;
};
// ssb-017: line totals on 'Shop Orders', one case, needs dynamic_rows. ssb-024: inventory, two cases.
const TASK = "ssb-017";

function env(options: Record<string, unknown> = {}) {
  const config = buildRunConfig({
    name: "spreadsheetbench",
    split_mode: "sample",
    sandbox_timeout: 2,
    exec_timeout: 60,
    ...options,
  });
  return createSpreadsheetEnv(config, { rootDir: process.cwd(), vars: TEST_VARS });
}

async function run(
  script: (call: number) => FakeReply,
  opts: { options?: Record<string, unknown>; item?: Item; train?: boolean; signal?: AbortSignal } = {},
) {
  const client = fakeClient((_, i) => script(i));
  const trajectory = await env(opts.options).rollout({
    item: opts.item ?? byId(TASK),
    skill: "# S\n- be careful",
    client,
    phase: opts.train ? "train" : "selection",
    seed: 1,
    useEvalFeedback: opts.train ?? false,
    signal: opts.signal,
  });
  return { client, trajectory };
}

const entries = (t: Trajectory) => t.conversation as Array<{ role: string; content: string }>;
const userText = (client: { calls: Array<{ messages: Array<{ content: unknown }> }> }, call: number) =>
  String(client.calls[call]?.messages.at(-1)?.content ?? "");

describe("SpreadsheetBench rollout (single)", () => {
  it("runs the script on every case and scores it; the trajectory ends with the verification report and the result", async () => {
    const { client, trajectory } = await run(() => code("ssb-024"), { item: byId("ssb-024") });
    expect(trajectory).toMatchObject({
      id: "ssb-024",
      hard: 1,
      soft: 1,
      status: "ok",
      prediction: "2/2 cases passed",
      taskType: "cell_level",
      nTurns: 1,
    });
    expect(trajectory.failReason).toBeUndefined();
    expect(trajectory.extras).toMatchObject({ ok: true, n_cases: 2, n_exec_pass: 2, n_pass: 2, phase: "done" });
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.system.endsWith("\n## Skill\n# S\n- be careful\n## End of Skill")).toBe(true);
    expect(trajectory.targetSystemPrompt).toBe(client.calls[0]?.system);
    const user = userText(client, 0);
    expect(user).toMatch(/^## Instruction\nIn the 'Stock 1' sheet/);
    expect(user).toContain("## Answer Position\n'Stock 1'!E2:E11");
    expect(user).toMatch(
      /Sheet "Readme" \(dimensions A1:A2, max_row=2, max_col=1\)\n {2}A1=This workbook was exported/,
    );
    expect(user).toContain("A1=SKU | B1=Item | C1=In Stock");
    const last = entries(trajectory).slice(-2);
    expect(last[0]?.content).toMatch(
      /^\[POST-EXECUTION VERIFICATION\]\nCase 1: PASS \(\d+\/\d+ answer cells correct\)/,
    );
    expect(last[1]?.content).toBe("[EVALUATION RESULT] 2/2 cases passed | soft=1.000 hard=1");
  });

  it("reports a wrong script with its first wrong cell", async () => {
    const { trajectory } = await run(() => code(TASK, "dynamic_rows"));
    expect(trajectory).toMatchObject({ hard: 0, soft: 0, status: "ok", prediction: "0/1 cases passed" });
    expect(trajectory.failReason).toMatch(
      /^eval-mismatch: 0\/1 cases passed; case 1: Shop Orders!F7: got None, expected 539.73 \(\+\d+ more wrong cells\)$/,
    );
  });

  it("turns a crash into an error, a loop into a timeout, and a reply without code into empty-code-block", async () => {
    const crash = await run(() => "```python\nraise ValueError('boom')\n```");
    expect(crash.trajectory).toMatchObject({
      status: "error",
      hard: 0,
      failReason: "exec-error: case 1: ValueError: boom",
    });
    const loop = await run(() => "```python\nwhile True:\n    pass\n```", { options: { sandbox_timeout: 0.5 } });
    expect(loop.trajectory).toMatchObject({ status: "timeout", hard: 0 });
    expect(loop.trajectory.failReason).toMatch(/^exec-timeout: case 1: the script ran longer than 0.5s/);
    const empty = await run(() => "I would rather not.\n```\n```");
    expect(empty.trajectory).toMatchObject({ status: "error", failReason: "empty-code-block" });
  });

  it("maps model failures to error/timeout and rejects on cancellation", async () => {
    const failed = await run(() => new Error("boom"));
    expect(failed.trajectory).toMatchObject({ status: "error", failReason: "llm-call-failed: error: boom", hard: 0 });
    const hung = await run(() => "hang", { options: { exec_timeout: 0.05 } });
    expect(hung.trajectory).toMatchObject({
      status: "timeout",
      failReason: "llm-call-failed: timeout: no answer within 0.05s",
    });
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    await expect(run(() => "hang", { signal: controller.signal })).rejects.toThrow("cancelled");
  });

  it("gives error trajectories for an item without test cases or without an instruction, without calling the model", async () => {
    const nowhere = await run(() => code(TASK), {
      item: { ...byId(TASK), id: "gone", spreadsheet_path: "spreadsheet/gone" },
    });
    expect(nowhere.trajectory).toMatchObject({ status: "error", failReason: "no-test-cases", hard: 0 });
    expect(nowhere.client.calls).toHaveLength(0);
    const bare = await run(() => code(TASK), {
      item: { id: "x", answer_position: "A1", spreadsheet_path: "spreadsheet/ssb-017" },
    });
    expect(bare.trajectory).toMatchObject({ status: "error", failReason: "item is missing field 'instruction'" });
    expect(entries(bare.trajectory).at(-1)?.content).toBe("[EVALUATION RESULT] item is missing field 'instruction'");
  });
});

describe("SpreadsheetBench data root", () => {
  it("resolves spreadsheet_path against env.data_root under the project root; an unreadable workbook is a setup error", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "data", "tasks", "bad"), { recursive: true });
    for (const f of ["1_bad_input.xlsx", "1_bad_answer.xlsx"])
      writeFileSync(path.join(root, "data", "tasks", "bad", f), "not a zip");
    const config = buildRunConfig({
      name: "spreadsheetbench",
      split_mode: "split_dir",
      data_root: "data",
      sandbox_timeout: 2,
    });
    const client = fakeClient(() => code(TASK));
    const t = await createSpreadsheetEnv(config, { rootDir: root, vars: TEST_VARS }).rollout({
      item: { id: "bad", instruction: "Do it.", answer_position: "A1", spreadsheet_path: "tasks/bad" },
      skill: "",
      client,
      phase: "test",
      seed: 0,
      useEvalFeedback: false,
    });
    expect(t).toMatchObject({ status: "error", hard: 0 });
    expect(t.failReason).toMatch(/^setup-error: cannot read 1_bad_input.xlsx: BadZipFile/);
    expect(client.calls).toHaveLength(0);
    removeTempDirs();
  });
});

describe("SpreadsheetBench rollout (multi)", () => {
  const multi = { mode: "multi", max_turns: 3 };

  it("feeds an exception back and takes the corrected script; a clean run stops the loop", async () => {
    const { client, trajectory } = await run(
      (i) => (i === 0 ? "```python\nraise KeyError('Sales')\n```" : code(TASK)),
      { options: multi },
    );
    expect(client.calls).toHaveLength(2);
    expect(userText(client, 1)).toMatch(
      /^Running your script on the workbook failed:\n\nTraceback \(most recent call last\):\n {2}File "solution.py", line 1, in <module>\n[\s\S]*KeyError: 'Sales'\n\nFix the problem/,
    );
    expect(trajectory).toMatchObject({ hard: 1, status: "ok", nTurns: 2 });
  });

  it("asks again after a reply without code", async () => {
    const { client, trajectory } = await run((i) => (i === 0 ? "Let me think.\n```python\n```" : code(TASK)), {
      options: multi,
    });
    expect(userText(client, 1)).toContain("Your reply contained no Python code.");
    expect(trajectory.hard).toBe(1);
  });

  it("does not give evaluation feedback outside training", async () => {
    const { client, trajectory } = await run(() => code(TASK, "dynamic_rows"), { options: multi });
    expect(client.calls).toHaveLength(1);
    expect(trajectory.hard).toBe(0);
  });

  it("in training, feeds back the wrong cells with the script's own values and never the expected ones", async () => {
    const { client, trajectory } = await run((i) => (i < 2 ? code(TASK, "dynamic_rows") : code(TASK)), {
      options: multi,
      train: true,
    });
    expect(client.calls).toHaveLength(3);
    expect(trajectory).toMatchObject({ hard: 1, nTurns: 3 });
    const feedback = userText(client, 1);
    expect(feedback).toMatch(
      /^Your script ran, but the result is not right yet: 5 answer cells are correct, these are not:\n- Shop Orders!F7: your script wrote None\n/,
    );
    expect(feedback).not.toMatch(/expected/i);
    // The expected values, as the analyst's report shows them for the same wrong script:
    const wrong = await run(() => code(TASK, "dynamic_rows"));
    const report = entries(wrong.trajectory).at(-2)?.content ?? "";
    const expected = [...report.matchAll(/expected=(\S+) ✗/g)].map((m) => m[1]!);
    expect(expected.length).toBeGreaterThan(0);
    for (const value of expected) expect(feedback).not.toContain(value);
  });
});
