/**
 * Test fakes for the engine (imported only by tests): a scripted model client, a tiny environment whose
 * items are answered by a rule table, and a context builder.
 */
import { RunConfigSchema, type RunConfig, type RunConfigInput } from "../contracts/run-config";
import type { EngineEvent } from "../contracts/events";
import { createContext, type RunContext, type RunPlan } from "./context";
import { MemoryCheckpointStore } from "./memory-store";
import type { CompletionRequest, CompletionResult, EngineDeps, Environment, ModelClient } from "./ports";
import { planRun } from "./run-plan";
import type { Item, Splits, Trajectory } from "./types";

/** A client that answers with `respond(req)` and records every request. */
export class ScriptedClient implements ModelClient {
  readonly backend = "scripted";
  readonly model = "scripted";
  readonly calls: CompletionRequest[] = [];
  constructor(private readonly respond: (req: CompletionRequest, n: number) => string | Error) {}
  async complete(req: CompletionRequest): Promise<CompletionResult> {
    this.calls.push(req);
    const out = this.respond(req, this.calls.length);
    if (out instanceof Error) throw out;
    return { text: out, usage: { promptTokens: 10, completionTokens: 5 }, latencyMs: 0, cached: false };
  }
  byStage(stage: string): CompletionRequest[] {
    return this.calls.filter((c) => c.stage === stage);
  }
}

/** Counts every call made through it (used to prove that resume re-pays nothing). */
export class CountingClient implements ModelClient {
  count = 0;
  readonly byStage = new Map<string, number>();
  constructor(private readonly inner: ModelClient) {}
  get backend() {
    return this.inner.backend;
  }
  get model() {
    return this.inner.model;
  }
  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const res = await this.inner.complete(req);
    this.count += 1;
    this.byStage.set(req.stage, (this.byStage.get(req.stage) ?? 0) + 1);
    return res;
  }
}

/** Items `q0…qN`; an item is answered correctly when the skill contains its `needs` word. */
export function wordItems(prefix: string, n: number, words: readonly string[]): Item[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    question: `question ${prefix}${i}`,
    needs: words[i % words.length]!,
  }));
}

export function wordSplits(words: readonly string[] = ["alpha", "beta", "gamma"]): Splits {
  return { train: wordItems("t", 12, words), val: wordItems("v", 6, words), test: wordItems("x", 6, words) };
}

/** An environment that scores `hard = 1` when the skill mentions the item's word; it still calls the target. */
export function wordEnv(opts: { fail?: (item: Item) => Trajectory["status"] | null } = {}): Environment {
  return {
    name: "words",
    taskTypes: () => ["word"],
    failureTaxonomy: () => ["rule_missing", "other"],
    async rollout({ item, skill, client, signal }) {
      const status = opts.fail?.(item) ?? null;
      if (status) return { id: item.id, hard: 0, soft: 0, status, failReason: `${status}: injected`, conversation: [] };
      const res = await client.complete({
        role: "target",
        stage: "rollout",
        system: `skill:\n${skill}`,
        messages: [{ role: "user", content: String(item.question) }],
        maxTokens: 100,
        signal,
      });
      const ok = skill.includes(String(item.needs));
      return {
        id: item.id,
        hard: ok ? 1 : 0,
        soft: ok ? 1 : 0.25,
        status: "ok",
        prediction: ok ? String(item.needs) : "unknown",
        reference: String(item.needs),
        failReason: ok ? undefined : `EM=0: missing ${String(item.needs)}`,
        conversation: [
          { role: "user", content: item.question },
          { role: "assistant", content: res.text },
        ],
        taskType: "word",
        question: String(item.question),
        promptTokens: res.usage.promptTokens,
        completionTokens: res.usage.completionTokens,
      };
    },
  };
}

export function testConfig(overrides: RunConfigInput = {}): RunConfig {
  const base: RunConfigInput = {
    model: { backend: "sim" },
    train: { num_epochs: 1, batch_size: 4, seed: 42 },
    gradient: { minibatch_size: 2, analyst_workers: 4 },
    env: { name: "words", workers: 4 },
  };
  const merged: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overrides))
    merged[k] = { ...(base as Record<string, object>)[k], ...(v as object) };
  return RunConfigSchema.parse(merged);
}

export function fixedClock(): EngineDeps["clock"] {
  let t = 0;
  return { now: () => (t += 1) };
}

export interface TestDeps extends EngineDeps {
  store: MemoryCheckpointStore;
  eventsSeen: EngineEvent[];
}

export function testDeps(opts: {
  config?: RunConfig;
  splits?: Splits;
  env?: Environment;
  optimizer: ModelClient;
  target?: ModelClient;
  initialSkill?: string;
  signal?: AbortSignal;
  store?: MemoryCheckpointStore;
  onEvent?: (e: EngineEvent) => void;
}): TestDeps {
  const eventsSeen: EngineEvent[] = [];
  return {
    config: opts.config ?? testConfig(),
    splits: opts.splits ?? wordSplits(),
    initialSkill: opts.initialSkill ?? "# Skill\n\n## Rules\n- Be careful.\n",
    env: opts.env ?? wordEnv(),
    optimizer: opts.optimizer,
    target: opts.target ?? new ScriptedClient(() => "ok"),
    store: opts.store ?? new MemoryCheckpointStore(),
    events: {
      emit: (e) => {
        eventsSeen.push(e);
        opts.onEvent?.(e);
      },
    },
    clock: fixedClock(),
    signal: opts.signal,
    eventsSeen,
  };
}

export function testContext(deps: EngineDeps, plan?: Partial<RunPlan>): RunContext {
  return createContext(deps, { ...planRun(deps.config, deps.splits), ...plan });
}
