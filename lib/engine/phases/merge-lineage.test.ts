import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../contracts/events";
import type { CompletionRequest, CompletionResult, ModelClient } from "../ports";
import { SIGNATURES } from "../prompts/common";
import { ScriptedClient, testConfig, testContext, testDeps } from "../testing";
import { wordOptimizer } from "../testing-optimizer";
import { runTraining } from "../trainer";
import type { Patch } from "../types";
import { mergePatches, type MergeInput } from "./aggregate";

type Of<T extends EngineEvent["type"]> = Extract<EngineEvent, { type: T }>;
const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");
const edit = (content: string) => ({ op: "append", content });
const patch = (...contents: string[]): Patch => ({ reasoning: contents.join("+"), edits: contents.map(edit) });
const contents = (p: Patch) => (p.edits as Array<{ content: string }>).map((e) => e.content);

/** The chunk's item contents, joined: "ab" for a level-1 chunk of patches a and b. */
function chunkLabel(req: CompletionRequest): string {
  const user = userOf(req);
  const chunk = JSON.parse(user.slice(user.indexOf("[\n"))) as Patch[];
  return chunk.flatMap(contents).join("");
}

/** A level merge that keeps every item of the chunk (the model combined them all). */
function concatAnswer(req: CompletionRequest): string {
  const user = userOf(req);
  const chunk = JSON.parse(user.slice(user.indexOf("[\n"))) as Patch[];
  return JSON.stringify({ reasoning: "m", edits: chunk.flatMap((p) => p.edits as object[]) });
}

function setup(optimizer: ModelClient, opts: { size?: number; workers?: number } = {}) {
  const cfg = testConfig();
  cfg.gradient.merge_batch_size = opts.size ?? 2;
  if (opts.workers !== undefined) cfg.gradient.analyst_workers = opts.workers;
  const deps = testDeps({ optimizer, config: cfg });
  deps.logger = { info: () => {}, warn: () => {} };
  return testContext(deps);
}

const input = (failure: Patch[], success: Patch[] = []): MergeInput => ({
  stepDir: "steps/step_0001",
  skill: "# Skill\n",
  failure,
  success,
  metaBlock: "",
});

describe("merge provenance", () => {
  it("a model merge's items come from every input of the call; levels accumulate", async () => {
    const ctx = setup(new ScriptedClient(concatAnswer));
    const out = await mergePatches(ctx, input([patch("a", "b"), patch("c"), patch("d")]));
    expect(contents(out.merged)).toEqual(["a", "b", "c", "d"]);
    // L1: [ab, c] → 0..2 each; [d] passes; L2: [abc, d] → 0..3 each.
    expect(out.from).toEqual([0, 1, 2, 3].map(() => [0, 1, 2, 3]));
  });

  it("a fallback concatenation keeps each item's own lineage", async () => {
    const ctx = setup(new ScriptedClient((req) => (chunkLabel(req) === "abc" ? "not json" : concatAnswer(req))));
    const out = await mergePatches(ctx, input([patch("a"), patch("b"), patch("c")]));
    // L1 [a, b] merged by the model → [0, 1] each; L2 [ab, c] falls back → concatenation.
    expect(out.from).toEqual([[0, 1], [0, 1], [2]]);
  });

  it("success patches are numbered after the failure patches; the final merge combines both groups", async () => {
    const final = new ScriptedClient((req) =>
      req.system.startsWith(SIGNATURES.mergeFinal)
        ? JSON.stringify({ reasoning: "f", edits: [edit("x"), edit("y")] })
        : concatAnswer(req),
    );
    const merged = await mergePatches(setup(final), input([patch("f1", "f2")], [patch("s1"), patch("s2")]));
    expect(merged.from).toEqual([
      [0, 1, 2, 3],
      [0, 1, 2, 3],
    ]);
    const fallback = new ScriptedClient((req) =>
      req.system.startsWith(SIGNATURES.mergeFinal) ? "no" : concatAnswer(req),
    );
    const out = await mergePatches(setup(fallback), input([patch("f1", "f2")], [patch("s1"), patch("s2")]));
    expect(contents(out.merged)).toEqual(["f1", "f2", "s1", "s2"]);
    expect(out.from).toEqual([[0], [1], [2, 3], [2, 3]]);
    const only = await mergePatches(setup(fallback), input([], [patch("s1", "s2")]));
    expect(only.from).toEqual([[0], [1]]);
    expect((await mergePatches(setup(fallback), input([], []))).from).toEqual([]);
  });

  it("a training run's merged and selected edit events carry the recorded lineage", async () => {
    const deps = testDeps({ optimizer: wordOptimizer(), config: testConfig({ train: { batch_size: 4 } }) });
    await runTraining(deps);
    const proposed = deps.eventsSeen.filter((e): e is Of<"patchesProposed"> => e.type === "patchesProposed");
    const merged = deps.eventsSeen.filter((e): e is Of<"patchesMerged"> => e.type === "patchesMerged");
    const selected = deps.eventsSeen.filter((e): e is Of<"editsSelected"> => e.type === "editsSelected");
    expect(merged.length).toBeGreaterThan(0);
    expect(selected.flatMap((s) => s.edits).length).toBeGreaterThan(0);
    for (const m of merged) {
      const n = proposed.find((p) => p.step === m.step)!.edits.length;
      expect(m.from).toHaveLength(m.edits.length);
      for (const from of m.from!) {
        expect(from.length).toBeGreaterThan(0);
        expect(from.every((i) => i >= 0 && i < n)).toBe(true);
      }
      const sel = selected.find((x) => x.step === m.step)!;
      expect(sel.merged).toHaveLength(sel.edits.length);
      sel.edits.forEach((s, i) => expect(s).toEqual(m.edits[sel.merged![i]!]));
    }
  });
});

/** A model port that records when each merge call starts and ends, and answers only when the test releases it. */
class GatedClient implements ModelClient {
  readonly backend = "gated";
  readonly model = "gated";
  readonly log: string[] = [];
  private readonly open = new Map<string, () => void>();
  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const name = chunkLabel(req);
    this.log.push(`start ${name}`);
    await new Promise<void>((resolve) => this.open.set(name, resolve));
    this.log.push(`end ${name}`);
    return { text: concatAnswer(req), usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, cached: false };
  }
  inFlight(): string[] {
    return [...this.open.keys()].sort();
  }
  async release(name: string): Promise<void> {
    const r = this.open.get(name);
    if (!r) throw new Error(`${name} is not in flight (in flight: ${this.inFlight().join(", ")})`);
    this.open.delete(name);
    r();
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
};

describe("merge tree as a dataflow", () => {
  const leaves = ["a", "b", "c", "d", "e", "f"].map((c) => patch(c));

  it("a level-2 merge starts as soon as its two inputs are done, while another level-1 merge still runs", async () => {
    const client = new GatedClient();
    const run = mergePatches(setup(client), input(leaves));
    await settle();
    expect(client.inFlight()).toEqual(["ab", "cd", "ef"]);
    await client.release("ab");
    await client.release("cd");
    expect(client.inFlight()).toEqual(["abcd", "ef"]);
    // The start times: abcd started after its inputs ended and before ef (same level as its inputs) ended.
    expect(client.log).toEqual(["start ab", "start cd", "start ef", "end ab", "end cd", "start abcd"]);
    await client.release("ef");
    await client.release("abcd");
    await client.release("abcdef");
    const out = await run;
    expect(contents(out.merged)).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("gives the same merged patch and lineage whatever order the calls finish in", async () => {
    const reference = await mergePatches(setup(new ScriptedClient(concatAnswer)), input(leaves));
    for (const order of [
      ["ef", "cd", "ab", "abcd", "abcdef"],
      ["cd", "ab", "abcd", "ef", "abcdef"],
    ]) {
      const client = new GatedClient();
      const run = mergePatches(setup(client), input(leaves));
      await settle();
      for (const name of order) await client.release(name);
      const out = await run;
      expect([out.merged, out.from, out.fallbacks]).toEqual([reference.merged, reference.from, reference.fallbacks]);
    }
  });

  it("never runs more merge calls at once than analyst_workers, across levels", async () => {
    const client = new GatedClient();
    const run = mergePatches(setup(client, { workers: 2 }), input(leaves));
    await settle();
    expect(client.inFlight()).toEqual(["ab", "cd"]);
    await client.release("ab");
    expect(client.inFlight()).toEqual(["cd", "ef"]);
    await client.release("cd");
    expect(client.inFlight()).toEqual(["abcd", "ef"]);
    for (const name of ["abcd", "ef", "abcdef"]) await client.release(name);
    expect(contents((await run).merged)).toHaveLength(6);
  });
});
