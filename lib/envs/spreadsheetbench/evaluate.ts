/**
 * Running a script on a test case and comparing the result with the gold workbook (the comparison
 * itself is python/xlsx_tool.py, a port of the official SpreadsheetBench checker). A case passes iff
 * every answer range matches; soft = passed cases / cases, hard = 1 iff all pass.
 */
import { createHash } from "node:crypto";
import type { TestCase } from "./cases";
import { disposeScratch, executeScript, lastLine, type SandboxSettings } from "./sandbox";
import type { ToolReply, XlsxToolPool } from "./tool-pool";

/** One compared cell (values rendered by Python: text is quoted, so '12' and 12 differ visibly). */
export interface CellCheck {
  ref: string;
  got: string;
  expected: string;
  ok: boolean;
  /** Both sides empty. */
  empty: boolean;
}

/** The evaluator's answer for one case. */
export interface Comparison {
  ok: boolean;
  n_cells: number;
  n_correct: number;
  cells: CellCheck[];
  /** `Sheet!A1: got …, expected …` or `sheet 'X' missing in prediction`, in range order. */
  mismatches: string[];
  missing_sheets: string[];
  /** Answer cells holding a formula without a cached value (openpyxl never computes formulas). */
  formula_cells: string[];
}

/** What happened to the final code on one case. */
export type CaseResult =
  | { no: string; stage: "exec"; ok: false; kind: "error" | "timeout" | "no-output"; message: string }
  | { no: string; stage: "eval"; ok: false; kind: "eval-error"; message: string }
  | { no: string; stage: "done"; ok: boolean; comparison: Comparison };

/** What the answer cells are. */
export interface AnswerSpec {
  answerPosition: string;
  answerSheet: string;
}

/** Compares a predicted workbook with the gold one. */
export async function compareWorkbooks(
  tools: XlsxToolPool,
  opts: { gold: string; pred: string; spec: AnswerSpec; signal?: AbortSignal },
): Promise<ToolReply<Comparison>> {
  return tools.call<Comparison>(
    {
      op: "evaluate",
      gold: opts.gold,
      pred: opts.pred,
      answer_position: opts.spec.answerPosition,
      answer_sheet: opts.spec.answerSheet,
    },
    opts.signal,
  );
}

/** soft = passed / cases, hard = 1 iff every case passed (0/0 when there are none). */
export function scoreCases(results: readonly CaseResult[]): { hard: number; soft: number; passed: number } {
  const passed = results.filter((r) => r.ok).length;
  if (results.length === 0) return { hard: 0, soft: 0, passed: 0 };
  return { hard: passed === results.length ? 1 : 0, soft: passed / results.length, passed };
}

const MEMO_LIMIT = 1000;

/**
 * Runs scripts on cases and evaluates them. An identical script on the same case is not run twice
 * within one environment (bounded memo): model-written code that reads only its input gives the same
 * output, and the multi-turn loop re-applies the final script to case 1 anyway.
 */
export class CaseRunner {
  private readonly memo = new Map<string, CaseResult>();

  constructor(
    private readonly settings: SandboxSettings,
    private readonly tools: XlsxToolPool,
    private readonly useMemo: boolean,
  ) {}

  async run(code: string, testCase: TestCase, spec: AnswerSpec, signal?: AbortSignal): Promise<CaseResult> {
    const key = createHash("sha256")
      .update([code, testCase.input, testCase.gold, spec.answerPosition, spec.answerSheet].join("\u0000"))
      .digest("hex");
    const hit = this.useMemo ? this.memo.get(key) : undefined;
    if (hit) return hit;
    const result = await this.runUncached(code, testCase, spec, signal);
    // A cancelled run or a failed comparison says nothing about the code: only real outcomes are kept.
    if (signal?.aborted || result.stage === "eval") return result;
    if (this.useMemo) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value as string);
      this.memo.set(key, result);
    }
    return result;
  }

  private async runUncached(
    code: string,
    testCase: TestCase,
    spec: AnswerSpec,
    signal?: AbortSignal,
  ): Promise<CaseResult> {
    const exec = await executeScript({ settings: this.settings, code, inputPath: testCase.input, signal });
    try {
      if (exec.kind !== "ok")
        return { no: testCase.no, stage: "exec", ok: false, kind: exec.kind, message: exec.message };
      const compared = await compareWorkbooks(this.tools, { gold: testCase.gold, pred: exec.outputPath, spec, signal });
      if (!compared.ok) {
        return {
          no: testCase.no,
          stage: "eval",
          ok: false,
          kind: "eval-error",
          message: `cannot compare the output: ${compared.message}`,
        };
      }
      return { no: testCase.no, stage: "done", ok: compared.value.ok, comparison: compared.value };
    } finally {
      disposeScratch(exec.scratch);
    }
  }
}

/** One line describing why a case failed (the first mismatch, or the exception line). */
export function caseFailureLine(result: CaseResult): string {
  if (result.stage === "done") {
    const [first, ...rest] = result.comparison.mismatches;
    const more = result.comparison.n_cells - result.comparison.n_correct - 1;
    const tail = more > 0 ? ` (+${more} more wrong cells)` : rest.length > 0 ? ` (+${rest.length} more)` : "";
    return `${first ?? "no mismatch"}${tail}`;
  }
  if (result.stage === "exec" && result.kind === "error") return lastLine(result.message);
  return result.message.replace(/\s+/g, " ");
}
