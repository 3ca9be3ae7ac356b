/**
 * Creating a run from the dashboard: validate the preset, overrides, seed skill, data and backends as the
 * worker will use them (./check-run: no model client or environment is built in the web process), then
 * write the row and queue it. Nothing is written when anything is wrong.
 */
import { createHash, randomUUID } from "node:crypto";
import type { CreateRunInput } from "../contracts/api";
import { CreateRunSchema } from "../contracts/api";
import { redactSecrets } from "../contracts/redact";
import { createRun, findRunByRequestKey } from "../db/runs";
import { EngineError, planRun } from "../engine/run-plan";
import { AppError } from "../errors";
import { tryEnqueueRun } from "../queue/producer";
import { loadPreset } from "./presets";
import { checkRun, type CheckedRun } from "./check-run";
import { ensureRunPackages } from "./system-packages";

/** Keys whose empty text is a value ("no context field"), not "keep the preset's". */
const EMPTY_IS_A_VALUE = new Set(["env.id_field", "env.context_field", "env.answer_regex", "env.judge_rubric"]);

/** Form values → `key=value` overrides, the same syntax as the CLI's --cfg-options. */
export function toOverrideArgs(overrides: Record<string, string | number | boolean | null>): string[] {
  return Object.entries(overrides)
    .filter(([k, v]) => v !== null && (v !== "" || EMPTY_IS_A_VALUE.has(k)))
    .map(([k, v]) => `${k}=${String(v)}`);
}

export interface ValidatedRun {
  prepared: CheckedRun;
  sourceYaml: string;
  resolvedYaml: string;
  name: string;
}

/**
 * What validation does about the benchmark's system packages: `install` them when missing and allowed
 * (creating a run), or only `check` (the estimate, which changes nothing).
 */
export type SystemPackages = "install" | "check";

/** Everything a new run needs, validated; throws AppError/ConfigError naming the field. */
export async function validateRunRequest(
  raw: unknown,
  rootDir: string,
  packages: SystemPackages = "check",
): Promise<ValidatedRun> {
  try {
    return await validate(raw, rootDir, packages);
  } catch (err) {
    if (err instanceof EngineError) throw new AppError("INVALID_REQUEST", err.message, { field: err.field });
    // The loader speaks CLI; in the dashboard the overrides are the form's fields.
    if (err instanceof AppError)
      throw new AppError(err.code, err.message.replace(/ — set in --cfg-options/g, " (set in the form)"), {
        field: err.field,
        userMessage: err.userMessage?.replace(/ — set in --cfg-options/g, " (set in the form)"),
      });
    throw err;
  }
}

async function validate(raw: unknown, rootDir: string, packages: SystemPackages): Promise<ValidatedRun> {
  const input = CreateRunSchema.parse(raw);
  const loaded = loadPreset(rootDir, input.preset, toOverrideArgs(input.overrides));
  await ensureRunPackages(loaded.config, {
    install: packages === "install",
    env: process.env,
    say: (line) => console.log(`[skillopt] ${line}`),
  });
  // A request's run reads only inside the allowed roots; without a pasted skill, env.skill_init is read so.
  const prepared = checkRun({
    config: loaded.config,
    rootDir,
    skillText: input.skill,
    env: process.env,
    trust: "request",
  });
  planRun(loaded.config, prepared.splits); // sizes must be consistent before anything is written
  const stamp = new Date().toISOString().slice(0, 16).replace("T", " ");
  return {
    prepared,
    sourceYaml: loaded.yaml,
    resolvedYaml: loaded.resolvedYaml,
    name: input.name?.trim() || `${loaded.config.env.name} · ${input.preset.replace(/\.ya?ml$/, "")} · ${stamp}`,
  };
}

/**
 * A custom-benchmark run trains on the file the user chose: an upload (an env.data_path override) or,
 * only when the request says so (`exampleData: true`), the preset's own example file. Without either,
 * a failed or forgotten upload would quietly train on the example.
 */
export function checkDataChoice(raw: unknown, v: ValidatedRun): void {
  const input = CreateRunSchema.parse(raw);
  const env = v.prepared.config.env as Record<string, unknown>;
  if (env.name !== "custom" || env.split_mode !== "ratio") return;
  const uploaded = typeof input.overrides["env.data_path"] === "string" && input.overrides["env.data_path"] !== "";
  if (uploaded && input.exampleData) {
    throw new AppError(
      "INVALID_REQUEST",
      "exampleData: the request names an uploaded file (env.data_path) too; choose one",
      {
        field: "exampleData",
      },
    );
  }
  if (!uploaded && !input.exampleData) {
    throw new AppError(
      "INVALID_REQUEST",
      `file: no data file was uploaded; upload your .jsonl or .csv file, or choose the preset's example file (${String(env.data_path)})`,
      { field: "file" },
    );
  }
}

export interface CreatedRun {
  id: string;
  /** False when Redis was unreachable: the row is queued and a worker's reconcile loop queues its job. */
  queued: boolean;
  /** True when an earlier request with the same Idempotency-Key created this run. */
  replayed: boolean;
}

/** Key order must not make two identical requests look different. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}
const requestHashOf = (raw: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(canonical(raw)))
    .digest("hex");

/** The run an earlier request with this key created; a different body under the same key is refused. */
async function priorRun(requestKey: string, requestHash: string): Promise<CreatedRun | null> {
  const prior = await findRunByRequestKey(requestKey);
  if (!prior) return null;
  if (prior.requestHash !== requestHash) {
    throw new AppError("INVALID_REQUEST", "Idempotency-Key reused with a different request", {
      field: "Idempotency-Key",
      userMessage: "This Idempotency-Key was already used for a different run request.",
    });
  }
  return { id: prior.id, queued: true, replayed: true };
}

export async function createRunFromRequest(
  raw: CreateRunInput,
  rootDir: string,
  opts: { requestKey?: string } = {},
): Promise<CreatedRun> {
  const requestHash = opts.requestKey ? requestHashOf(raw) : undefined;
  if (opts.requestKey) {
    const prior = await priorRun(opts.requestKey, requestHash!);
    if (prior) return prior;
  }
  const v = await validateRunRequest(raw, rootDir, "install");
  checkDataChoice(raw, v);
  const { config } = v.prepared;
  const { roles } = v.prepared;
  const id = randomUUID();
  // The row comes first: a worker may pick the job up immediately.
  try {
    await createRun({
      id,
      name: v.name,
      config: redactSecrets(config),
      // The effective config (preset + overrides, defaults filled in): enough to reproduce the run.
      sourceYaml: v.resolvedYaml,
      seedSkill: v.prepared.initialSkill,
      optimizerBackend: roles.optimizer.backend,
      targetBackend: roles.target.backend,
      optimizerModel: roles.optimizer.model,
      targetModel: roles.target.model,
      simulated: v.prepared.simulated,
      stepsTotal: planRun(config, v.prepared.splits).totalSteps,
      requestKey: opts.requestKey,
      requestHash,
    });
  } catch (err) {
    // Two requests with one key raced: the other one's row stands.
    const prior =
      opts.requestKey && (err as { code?: string })?.code === "P2002"
        ? await priorRun(opts.requestKey, requestHash!)
        : null;
    if (prior) return prior;
    throw err;
  }
  // Time-boxed: with Redis down the answer still comes at once and the reconcile loop queues the job later.
  const queued = await tryEnqueueRun(id, {
    gen: 0,
    onError: (e) =>
      console.warn(
        `[api] run ${id} stored as queued; not on the queue yet: ${e instanceof Error ? e.message : String(e)}`,
      ),
  });
  return { id, queued, replayed: false };
}
