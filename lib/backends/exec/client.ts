/**
 * The part both exec clients share: one call = fresh workspace, one CLI run, read the answer; an empty
 * answer is retried with a note, CLI failures are thrown (never returned as an answer), and the
 * workspace is removed unless it should be kept for inspection.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CompletionRequest, ModelClient } from "../../engine/ports";
import { AppError } from "../../errors";
import { DEFAULT_BIN, EXEC_LABEL, installHint, resolveBin } from "./env";
import { buildExecPrompt } from "./prompt";
import { runCli, type CliOutput } from "./run-cli";
import { answerShape, buildTrace, redactSecrets } from "./trace";
import { createWorkspace, removeWorkspace } from "./workspace";
import {
  DEFAULT_EMPTY_RESPONSE_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ExecAttempt,
  type ExecCompletionResult,
  type ExecError,
  type ExecKind,
  type ExecSettings,
  type ResolvedExecSettings,
  type Workspace,
} from "./types";

/** What one CLI contributes: its arguments, how to read its output, and a trace header. */
export interface ExecDriver {
  kind: ExecKind;
  args(s: ResolvedExecSettings, ws: Workspace): string[];
  /** Reads one run's output; `failure` set means the CLI failed (the call throws with it). */
  read(out: CliOutput, ws: Workspace): Promise<ExecAttempt & { failure?: string }>;
  header(s: ResolvedExecSettings): string;
}

function invalid(field: string, message: string): AppError {
  return new AppError("INVALID_REQUEST", `${field}: ${message}`, { field });
}

/** Fills in defaults and rejects settings no CLI run could use. */
export function resolveSettings(kind: ExecKind, s: ExecSettings): ResolvedExecSettings {
  const timeoutMs = s.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = s.emptyResponseRetries ?? DEFAULT_EMPTY_RESPONSE_RETRIES;
  const sandbox = s.sandbox ?? "read-only";
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw invalid("timeoutMs", "must be a positive number of milliseconds");
  if (!Number.isInteger(retries) || retries < 0) throw invalid("emptyResponseRetries", "must be a whole number ≥ 0");
  if (sandbox !== "read-only" && sandbox !== "workspace-write")
    throw invalid("sandbox", "must be read-only or workspace-write");
  const effort = s.reasoningEffort?.trim() || undefined;
  if (effort !== undefined && !/^[A-Za-z0-9_-]+$/.test(effort))
    throw invalid("reasoningEffort", `unsupported value '${effort}'`);
  const model = s.model?.trim() || undefined;
  return {
    bin: resolveBin(s.bin?.trim() || DEFAULT_BIN[kind]),
    model,
    sandbox,
    reasoningEffort: effort,
    timeoutMs,
    emptyResponseRetries: retries,
    keepWorkspace: s.keepWorkspace ?? false,
    workRoot: s.workRoot,
    env: s.env,
  };
}

function withTrace(err: unknown, trace: string): unknown {
  if (err instanceof Error) (err as ExecError).trace ??= trace;
  return err;
}

async function keepArtifacts(
  ws: Workspace,
  out: CliOutput | null,
  trace: string,
  s: ResolvedExecSettings,
): Promise<void> {
  await mkdir(ws.dir, { recursive: true }); // an agent allowed to write may have removed its own folder
  await writeFile(join(ws.dir, ".skillopt_trace.txt"), `${trace}\n`);
  if (!out) return;
  await writeFile(join(ws.dir, ".skillopt_stdout.txt"), redactSecrets(out.stdout, s.env));
  await writeFile(join(ws.dir, ".skillopt_stderr.txt"), redactSecrets(out.stderr, s.env));
}

/** Builds a target-role ModelClient around one agent CLI. */
export function createExecClient(driver: ExecDriver, settings: ExecSettings): ModelClient {
  const s = resolveSettings(driver.kind, settings);
  const label = EXEC_LABEL[driver.kind];
  const fail = (message: string): ExecError => new Error(`${label}: ${redactSecrets(message, s.env)}`);

  async function complete(req: CompletionRequest): Promise<ExecCompletionResult> {
    const started = performance.now();
    const lines = [driver.header(s)];
    let promptTokens = 0;
    let completionTokens = 0;
    for (let retry = 0; retry <= s.emptyResponseRetries; retry++) {
      if (retry > 0) lines.push(`retry ${retry}/${s.emptyResponseRetries}: the previous final answer was empty`);
      const ws = await createWorkspace(req, s.workRoot);
      let out: CliOutput | null = null;
      try {
        const prompt = buildExecPrompt({ sandbox: s.sandbox, hasAttachments: ws.attachments.length > 0, retry });
        out = await runCli({
          label,
          bin: s.bin,
          args: driver.args(s, ws),
          cwd: ws.dir,
          env: s.env,
          stdin: prompt,
          timeoutMs: s.timeoutMs,
          signal: req.signal,
          installHint: installHint(driver.kind),
        });
        const got = await driver.read(out, ws);
        promptTokens += got.promptTokens;
        completionTokens += got.completionTokens;
        lines.push(...got.traceLines, answerShape(got.answer));
        if (got.failure !== undefined) throw fail(got.failure);
        const text = got.answer.trim();
        if (text !== "") {
          const latencyMs = Math.round(performance.now() - started);
          return {
            text,
            usage: { promptTokens, completionTokens },
            latencyMs,
            cached: false,
            trace: buildTrace(lines, s.env),
          };
        }
      } catch (err) {
        lines.push(`failed: ${err instanceof Error ? err.message : String(err)}`);
        throw withTrace(err, buildTrace(lines, s.env));
      } finally {
        if (s.keepWorkspace) await keepArtifacts(ws, out, buildTrace(lines, s.env), s);
        else await removeWorkspace(ws.dir);
      }
    }
    throw withTrace(
      fail(`empty final answer after ${s.emptyResponseRetries + 1} attempt(s)`),
      buildTrace(lines, s.env),
    );
  }

  return { backend: label, model: s.model ?? "default", complete };
}
