/**
 * Errors and truncated answers are not answers, end to end: the real openai SDK backend against the mock
 * LLM server trains the SearchQA sample while half of the target prompts fail after every retry, or while
 * 5 % of target answers come back cut off by the token limit; then the dashboard's read model on both
 * databases shows what each gate decision was scored on.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../../lib/config";
import type { EngineEvent, EngineEventOf, EvalItem } from "../../lib/contracts/events";
import type { Db } from "../../lib/db/client";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { getRunDetail, getStepDetail } from "../../lib/db/run-views";
import { createRun } from "../../lib/db/runs";
import {
  MemoryCheckpointStore,
  runTraining,
  skillHash,
  type CheckpointStore,
  type ModelClient,
} from "../../lib/engine";
import { useMockServer } from "../../lib/mock-llm/testing";
import type { MockFaults, MockLlmServer } from "../../lib/mock-llm/types";
import { prepareRun } from "../../lib/runs/prepare";
import { PROVIDERS, freshDb } from "../helpers/db";

const PRESET = "configs/searchqa/sample.yaml";

interface TrainOptions {
  overrides: string[];
  env?: Record<string, string>;
  store?: CheckpointStore;
  emit?: (e: EngineEvent) => Promise<void>;
  /** Wraps the target client (to replay the old behaviour). */
  target?: (c: ModelClient) => ModelClient;
}

async function train(opts: TrainOptions) {
  const { config } = loadRunConfig(PRESET, opts.overrides);
  const run = prepareRun({
    config,
    rootDir: process.cwd(),
    trust: "local",
    env: opts.env,
    policy: { retry: { baseDelayMs: 2, maxDelayMs: 10 } },
  });
  const events: EngineEvent[] = [];
  const store = opts.store ?? new MemoryCheckpointStore();
  const target = opts.target ? opts.target(run.target) : run.target;
  await runTraining({
    config,
    splits: run.splits,
    initialSkill: run.initialSkill,
    env: run.env,
    optimizer: run.optimizer,
    target,
    store,
    events: {
      emit: async (e) => {
        events.push(e);
        await opts.emit?.(e);
      },
    },
    clock: { now: () => Date.now() },
  });
  const of = <T extends EngineEvent["type"]>(t: T) => events.filter((e): e is EngineEventOf<T> => e.type === t);
  return { of, best: (await store.getText("best_skill.md")) ?? "" };
}

/** Both roles on the openai backend (Chat Completions through the SDK), pointed at the mock. */
const viaMock = (server: MockLlmServer, extra: string[] = []) => [
  "model.backend=openai",
  "model.optimizer=gpt-4o",
  "model.target=gpt-4o",
  `model.openai_base_url=${server.url}/v1`,
  "model.max_retries=2",
  "train.num_epochs=2",
  ...extra,
];
const ENV = { OPENAI_API_KEY: "sk-mock" };

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
const byId = (rows: EvalItem[]) => new Map(rows.map((r) => [r.id, r]));

describe("training through the openai SDK against the mock LLM server", () => {
  const mock = useMockServer();

  it("half of the target prompts failing after retries: the gate never counts them as wrong", async () => {
    const faults: MockFaults = { rate500: 0.5, roles: ["target"], byPrompt: true };
    const server = await mock({ faults });
    const r = await train({ overrides: viaMock(server, ["evaluation.max_error_share=0.9"]), env: ENV });
    expect(server.stats().faults.rate500).toBeGreaterThan(0);
    expect(server.stats().byStatus["500"]).toBe(server.stats().faults.rate500); // every retry of a failing prompt failed again

    const baseline = r.of("baselineScored")[0]!;
    expect(baseline.nErrors).toBeGreaterThan(0);
    const answered = baseline.results.filter((x) => x.status === "ok");
    expect(baseline.hard).toBeCloseTo(mean(answered.map((x) => x.hard)), 12);

    // Replay the gate: per-item results of the current skill, then each candidate's, compared on the items both answered.
    const candidates = new Map<string, EvalItem[]>(); // by candidate hash (a cached candidate reuses its rows)
    const hashAt = new Map(r.of("candidateBuilt").map((e) => [e.step, e.candidateHash]));
    let current = byId(baseline.results);
    let partialAccepts = 0;
    let partialDecisions = 0;
    let oldRuleDiffers = 0;
    for (const g of r.of("gateDecided")) {
      const scored = r.of("candidateScored").find((e) => e.step === g.step)!;
      const hash = hashAt.get(g.step)!;
      if (!scored.cached) candidates.set(hash, scored.results);
      const cand = byId(candidates.get(hash)!);
      const paired = [...cand.values()].filter((x) => x.status === "ok" && current.get(x.id)?.status === "ok");
      expect(g.nPaired).toBe(paired.length);
      expect(g.nItems - g.nPaired).toBe(g.nErrors);
      expect(g.candidatePairedScore).toBeCloseTo(mean(paired.map((x) => x.hard)), 12);
      expect(g.currentPairedScore).toBeCloseTo(mean(paired.map((x) => current.get(x.id)!.hard)), 12);
      expect(g.action.startsWith("accept")).toBe(g.candidatePairedScore > g.currentPairedScore);
      if (g.nPaired < g.nItems) partialDecisions++;
      // The old rule: errors scored 0, means over every item.
      const oldSays = mean([...cand.values()].map((x) => x.hard)) > mean([...current.values()].map((x) => x.hard));
      if (oldSays !== g.action.startsWith("accept")) oldRuleDiffers++;
      if (g.action.startsWith("accept")) {
        current = cand;
        if (g.nPaired < g.nItems) partialAccepts++;
      }
    }
    expect(partialDecisions).toBeGreaterThan(1);
    expect(partialAccepts).toBeGreaterThan(0); // a candidate better on the answered items was accepted
    expect(oldRuleDiffers).toBeGreaterThan(0); // and counting errors as wrong would have decided otherwise
  });

  it("5 % of target answers cut off by the token limit no longer change the best skill", async () => {
    // One target call at a time, so the truncation draws fall on the same calls in every run.
    const overrides = (s: MockLlmServer) => viaMock(s, ["env.workers=1"]);
    // Seed 2: a fault draw under which the old behaviour (below) ends elsewhere; the fixed behaviour keeps the
    // reference's best skill under every seed tried (1–7), the old one only changes it under some.
    const faults: MockFaults = { truncatedRate: 0.05, roles: ["target"], seed: 2 };
    const reference = await train({ overrides: overrides(await mock()), env: ENV });
    const cut = await mock({ faults });
    const r = await train({ overrides: overrides(cut), env: ENV });
    expect(cut.stats().faults.truncated).toBeGreaterThan(5);
    expect(r.best).toBe(reference.best);
    expect(r.of("gateDecided").map((g) => g.action)).toEqual(reference.of("gateDecided").map((g) => g.action));
    // The same run scoring cut-off answers as they came (the old behaviour) ends with another best skill.
    const silent = (c: ModelClient): ModelClient => ({
      backend: c.backend,
      model: c.model,
      complete: async (req) => ({ ...(await c.complete(req)), truncated: false }),
    });
    const old = await train({ overrides: overrides(await mock({ faults })), env: ENV, target: silent });
    expect(old.best).not.toBe(reference.best);
  });
});

describe.each(PROVIDERS)("the run page's read model on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("each step says what its gate was scored on, and a skipped step why", async () => {
    // Truncated selection answers with no retry: some steps are decided on fewer items, some skipped.
    const overrides = [
      "model.sim_truncate_rate=0.3",
      "env.truncation_retry_max_tokens=16384",
      "evaluation.max_error_share=0.5",
      "train.num_epochs=1",
    ];
    const { config, resolvedYaml } = loadRunConfig(PRESET, overrides);
    const id = randomUUID();
    await createRun(
      {
        id,
        name: "unanswered",
        config,
        sourceYaml: resolvedYaml,
        seedSkill: prepareRun({ config, rootDir: process.cwd(), trust: "local" }).initialSkill,
        optimizerBackend: "sim",
        targetBackend: "sim",
        simulated: true,
        stepsTotal: 3,
      },
      { db },
    );
    await train({
      overrides,
      store: new DbCheckpointStore(id, db),
      emit: async (e) => {
        await persistEngineEvent(id, e, skillHash, db);
      },
    });

    const detail = await getRunDetail(id, { db });
    const skipped = detail.steps.find((s) => s.action === "skip_errors")!;
    expect(skipped.coverage).toMatchObject({ nItems: 15, nTruncated: 15 - skipped.coverage!.nPaired });
    expect(skipped.coverage!.skipReason).toMatch(
      /selection items were not answered by both skills \(\d+ truncated; candidate \d+, current skill \d+ unanswered\), more than evaluation.max_error_share = 0.5$/,
    );
    const decided = detail.steps.find(
      (s) => s.action !== "skip_errors" && s.coverage !== null && s.coverage.nPaired < s.coverage.nItems,
    )!;
    expect(decided.coverage!.skipReason).toBeNull();

    const step = await getStepDetail(id, skipped.step, skillHash, { db });
    expect(step.candidate?.status).toBe("skipped_errors");
    expect(step.step.coverage).toEqual(skipped.coverage);
    expect(step.selection.some((row) => row.status === "truncated")).toBe(true);
    expect(step.edits.filter((e) => e.stage === "selected").every((e) => e.gateStatus === "skipped")).toBe(true);
  });
});
