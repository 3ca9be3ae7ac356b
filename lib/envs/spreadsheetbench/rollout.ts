/**
 * One SpreadsheetBench rollout. `single`: one call, the first fenced block is the script. `multi`: up
 * to `max_turns` calls; the script runs on case 1 after each; an exception is fed back (≤ 3000 chars)
 * for a corrected script; a clean run stops the loop unless this is a training rollout with eval
 * feedback, where wrong answer cells are fed back with the script's own values only. The final script
 * is then applied to every test case and scored.
 */
import path from "node:path";
import type { PathGuard } from "../common/path-guard";
import type { RunConfig } from "../../contracts/run-config";
import type { ChatMessage, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { callRolloutTarget, type CallFailureStatus } from "../common/target-call";
import { findTestCases, type TestCase } from "./cases";
import { scoreCases, type AnswerSpec, type CaseResult, type CaseRunner } from "./evaluate";
import { missingSpreadsheetField, spreadsheetPathOf, spreadsheetTaskType } from "./normalise";
import {
  buildSpreadsheetSystemPrompt,
  buildSpreadsheetUserPrompt,
  EMPTY_CODE_MESSAGE,
  execErrorMessage,
  extractCode,
  formatPreview,
  wrongCellsMessage,
  type PreviewSheet,
} from "./prompt";
import { failureReason, verificationReport } from "./report";
import type { SandboxSettings } from "./sandbox";
import type { XlsxToolPool } from "./tool-pool";

/** Everything a rollout needs besides the item. */
export interface SpreadsheetRuntime {
  config: RunConfig;
  mode: "single" | "multi";
  /** Absolute folder that `spreadsheet_path` is relative to. */
  dataRoot: string;
  /** The run's path guard: a dashboard run's task folders and workbooks must lie inside the allowed roots. */
  paths?: PathGuard;
  settings: SandboxSettings;
  runner: CaseRunner;
  tools: XlsxToolPool;
  previews: Map<string, string>;
  /** Whether the interpreter has pandas (the system prompt offers it only then). */
  pandas: boolean;
}

type Base = Omit<Trajectory, "hard" | "soft" | "status" | "conversation">;

function failed(
  base: Base,
  status: CallFailureStatus,
  reason: string,
  conversation: ConversationEntry[],
  extras: Record<string, unknown>,
): Trajectory {
  const entries = [...conversation, { role: "system", content: `[EVALUATION RESULT] ${reason}` }];
  return {
    ...base,
    hard: 0,
    soft: 0,
    status,
    failReason: reason,
    conversation: entries,
    extras: { ...base.extras, ...extras, ok: false },
  };
}

async function workbookPreview(
  rt: SpreadsheetRuntime,
  input: string,
  signal?: AbortSignal,
): Promise<string | { error: string }> {
  const hit = rt.previews.get(input);
  if (hit !== undefined) return hit;
  const res = await rt.tools.call<{ sheets: PreviewSheet[] }>({ op: "preview", path: input }, signal);
  if (!res.ok) return { error: res.message };
  const text = formatPreview(res.value.sheets);
  rt.previews.set(input, text);
  return text;
}

interface LoopResult {
  code: string;
  turns: number;
  llmFailure?: { status: CallFailureStatus; reason: string };
  promptTokens: number;
  completionTokens: number;
}

/** The generate → run → feedback loop; returns the final script (may be ""). */
async function codeLoop(
  rt: SpreadsheetRuntime,
  input: RolloutInput,
  ctx: { system: string; user: string; first: TestCase; spec: AnswerSpec; conversation: ConversationEntry[] },
): Promise<LoopResult> {
  const maxTurns = rt.mode === "single" ? 1 : Math.max(1, rt.config.env.max_turns);
  const budgetSec = rt.config.env.exec_timeout;
  const budget = budgetSec > 0 ? AbortSignal.timeout(Math.max(1, budgetSec - 10) * 1000) : undefined;
  const messages: ChatMessage[] = [{ role: "user", content: ctx.user }];
  const out: LoopResult = { code: "", turns: 0, promptTokens: 0, completionTokens: 0 };
  for (let turn = 1; turn <= maxTurns; turn++) {
    if (turn > 1 && budget?.aborted) break;
    const outcome = await callRolloutTarget({
      client: input.client,
      signal: input.signal,
      config: rt.config,
      system: ctx.system,
      messages: [...messages],
    });
    if (!outcome.ok) {
      if (out.code === "")
        out.llmFailure = { status: outcome.status, reason: `llm-call-failed: ${outcome.failReason}` };
      break;
    }
    out.turns = turn;
    out.promptTokens += outcome.result.usage.promptTokens;
    out.completionTokens += outcome.result.usage.completionTokens;
    const reply = outcome.result.text;
    messages.push({ role: "assistant", content: reply });
    ctx.conversation.push({ role: "assistant", content: reply });
    const code = extractCode(reply);
    if (code !== "") out.code = code;
    if (turn === maxTurns) break;
    const feedback = code === "" ? EMPTY_CODE_MESSAGE : await feedbackFor(rt, input, code, ctx);
    if (feedback === null) break;
    messages.push({ role: "user", content: feedback });
    ctx.conversation.push({ role: "user", content: feedback });
  }
  return out;
}

/** The next user message after running `code` on case 1, or null when the loop should stop. */
async function feedbackFor(
  rt: SpreadsheetRuntime,
  input: RolloutInput,
  code: string,
  ctx: { first: TestCase; spec: AnswerSpec },
): Promise<string | null> {
  const result = await rt.runner.run(code, ctx.first, ctx.spec, input.signal);
  if (input.signal?.aborted) throw input.signal.reason ?? new Error("aborted");
  if (result.stage === "exec") return execErrorMessage(result.message);
  if (result.stage === "eval" || result.ok || !input.useEvalFeedback) return null;
  const c = result.comparison;
  return wrongCellsMessage(c.cells, c.missing_sheets, c.n_correct);
}

function finalStatus(results: readonly CaseResult[]): "ok" | "error" | "timeout" {
  if (results.some((r) => r.stage === "done")) return "ok";
  const first = results[0];
  return first?.stage === "exec" && first.kind === "timeout" ? "timeout" : "error";
}

/**
 * The task folder of an item and its test cases. The item's `spreadsheet_path` is data (an upload is anyone's
 * content), so for a dashboard run the folder and every workbook in it must pass the run's path guard.
 */
function taskFolder(
  rt: SpreadsheetRuntime,
  rel: string,
): { ok: true; folder: string; cases: TestCase[] } | { ok: false; reason: string } {
  const raw = path.resolve(rt.dataRoot, rel);
  if (!rt.paths) return { ok: true, folder: raw, cases: findTestCases(raw) };
  const folder = rt.paths.check("spreadsheet_path", raw);
  if (!folder.ok) return { ok: false, reason: `task folder '${rel}' is outside the folders the dashboard may read` };
  const cases = findTestCases(folder.path);
  const outside = cases.flatMap((c) => [c.input, c.gold]).find((f) => !rt.paths!.check("spreadsheet_path", f).ok);
  if (outside !== undefined)
    return {
      ok: false,
      reason: `workbook '${path.basename(outside)}' of task folder '${rel}' leads outside the folders the dashboard may read`,
    };
  return { ok: true, folder: folder.path, cases };
}

/** Runs one item with the skill and returns its scored trajectory (never throws, except on cancellation). */
export async function rolloutSpreadsheet(rt: SpreadsheetRuntime, input: RolloutInput): Promise<Trajectory> {
  const { item } = input;
  const instruction = typeof item.instruction === "string" ? item.instruction : "";
  const instructionType = typeof item.instruction_type === "string" ? item.instruction_type : "";
  const position = typeof item.answer_position === "string" ? item.answer_position : "";
  const base: Base = {
    id: item.id,
    taskType: spreadsheetTaskType(instructionType),
    taskDescription: instruction,
    question: instruction,
    reference: position,
    extras: { instruction_type: instructionType, answer_position: position },
  };
  const missing = missingSpreadsheetField(item);
  if (missing !== null) return failed(base, "error", `item is missing field '${missing}'`, [], { phase: "setup" });
  const where = taskFolder(rt, spreadsheetPathOf(item));
  if (!where.ok) return failed(base, "error", `setup-error: ${where.reason}`, [], { phase: "setup" });
  const { folder, cases } = where;
  if (cases.length === 0) return failed(base, "error", "no-test-cases", [], { phase: "setup", folder });
  const first = cases[0] as TestCase;
  const preview = await workbookPreview(rt, first.input, input.signal);
  if (typeof preview !== "string")
    return failed(base, "error", `setup-error: cannot read ${path.basename(first.input)}: ${preview.error}`, [], {
      phase: "setup",
    });
  const spec: AnswerSpec = {
    answerPosition: position,
    answerSheet: typeof item.answer_sheet === "string" ? item.answer_sheet : "",
  };
  const system = buildSpreadsheetSystemPrompt(input.skill, rt.pandas);
  const user = buildSpreadsheetUserPrompt({ instruction, instructionType, answerPosition: position, preview });
  const conversation: ConversationEntry[] = [{ role: "user", content: user }];
  const withPrompts: Base = {
    ...base,
    targetSystemPrompt: system,
    targetUserPrompt: user,
    extras: { ...base.extras, spreadsheet_preview: preview },
  };
  const loop = await codeLoop(rt, input, { system, user, first, spec, conversation });
  const usage = { nTurns: loop.turns, promptTokens: loop.promptTokens, completionTokens: loop.completionTokens };
  if (loop.llmFailure)
    return {
      ...failed({ ...withPrompts, ...usage }, loop.llmFailure.status, loop.llmFailure.reason, conversation, {
        phase: "llm",
        llm_ok: false,
      }),
    };
  if (loop.code === "")
    return failed({ ...withPrompts, ...usage }, "error", "empty-code-block", conversation, {
      phase: "extract",
      llm_ok: true,
      code_ok: false,
    });
  const results: CaseResult[] = [];
  for (const c of cases) {
    results.push(await rt.runner.run(loop.code, c, spec, input.signal));
    if (input.signal?.aborted) throw input.signal.reason ?? new Error("aborted");
  }
  return scoredTrajectory({ ...withPrompts, ...usage }, results, loop.code, conversation);
}

function scoredTrajectory(
  base: Base,
  results: CaseResult[],
  code: string,
  conversation: ConversationEntry[],
): Trajectory {
  const score = scoreCases(results);
  const reason = failureReason(results);
  const status = finalStatus(results);
  const report = verificationReport(results);
  const execPass = results.filter((r) => r.stage !== "exec").length;
  const summary = `${score.passed}/${results.length} cases passed`;
  const entries: ConversationEntry[] = [
    ...conversation,
    { role: "system", content: report },
    {
      role: "system",
      content: `[EVALUATION RESULT] ${summary} | soft=${score.soft.toFixed(3)} hard=${score.hard}${reason ? ` | ${reason}` : ""}`,
    },
  ];
  const phase = score.hard === 1 ? "done" : results.some((r) => r.stage === "exec") ? "exec" : "eval";
  return {
    ...base,
    hard: score.hard,
    soft: score.soft,
    status,
    prediction: summary,
    ...(reason !== undefined ? { failReason: reason } : {}),
    conversation: entries,
    extras: {
      ...base.extras,
      ok: score.hard === 1,
      phase,
      llm_ok: true,
      code_ok: true,
      exec_ok: execPass === results.length,
      n_cases: results.length,
      n_exec_pass: execPass,
      n_pass: score.passed,
      code,
      cases: results.map((r) =>
        r.ok
          ? { no: r.no, stage: r.stage, ok: true }
          : {
              no: r.no,
              stage: r.stage,
              ok: false,
              reason: r.stage === "done" ? (r.comparison.mismatches[0] ?? "") : r.message,
            },
      ),
    },
  };
}
