/**
 * Local judges (spec D.6): the rule judge (gbrain-compatible check operators), the check validator, and
 * the exact judge. Rule and exact judging cost no model call.
 *
 * Shape operators (section_present, section_contains, max_chars, min_chars) only constrain formatting;
 * an optimizer can satisfy them without a better answer, so a judge made only of them is flagged.
 */
import type { RuleCheck, RuleJudge } from "./types";

export const KNOWN_OPS = new Set([
  "section_present",
  "section_contains",
  "regex",
  "max_chars",
  "min_chars",
  "contains",
  "not_contains",
  "no_refusal",
  "tool_called",
]);
export const SHAPE_OPS = new Set(["section_present", "section_contains", "max_chars", "min_chars"]);
/** Operators whose argument must be a non-empty string. */
export const STRING_ARG_OPS = new Set([
  "section_present",
  "section_contains",
  "regex",
  "contains",
  "not_contains",
  "tool_called",
]);

const REFUSAL_OPENINGS = [
  "cannot complete",
  "i cannot",
  "i can't",
  "i'm unable",
  "i am unable",
  "unable to complete",
  "sorry, i can't",
  "sorry, i cannot",
  "no can do",
];

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Legacy strict check: a heading line or a bold line mentioning `name`, or a `name:` label at a line start. */
function sectionPresent(response: string, name: string): boolean {
  const n = escapeRegex(name);
  const heading = new RegExp(`^\\s{0,3}(?:#{1,6}\\s*.*${n}|\\*\\*.*${n}.*\\*\\*\\s*:?)\\s*$`, "im");
  return heading.test(response) || new RegExp(`^\\s*${n}\\s*:`, "im").test(response);
}

/** An ATX heading (up to three leading spaces, one to six #) whose text contains `name`, case-folded. */
function sectionContains(response: string, name: string): boolean {
  const needle = name.toLowerCase();
  for (const m of response.matchAll(/^ {0,3}#{1,6}(?:[ \t]+|$)([^\n]*)$/gm)) {
    if ((m[1] ?? "").toLowerCase().includes(needle)) return true;
  }
  return false;
}

/**
 * A bare refusal: empty, or a short reply (under 600 characters once leading Markdown markers are
 * removed) that opens with an abstention. A long reply that explains what is missing did the work.
 */
export function isRefusal(response: string): boolean {
  const text = response.trim();
  if (text === "") return true;
  const content = text.replace(/^(?:[>\-*_#\s]|\d+[.)])+/, "");
  const head = content.slice(0, 160).toLowerCase();
  return REFUSAL_OPENINGS.some((p) => head.startsWith(p)) && content.length < 600;
}

/** `max_chars` / `min_chars` bound: an integer, an integral float or a digit string; null when it is none of these. */
export function charBound(arg: unknown): number | null {
  if (typeof arg === "boolean") return null;
  if (typeof arg === "number") return Number.isInteger(arg) ? arg : null;
  if (typeof arg === "string" && /^[+-]?\d+$/.test(arg.trim())) return Number(arg.trim());
  return null;
}

function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern);
  } catch (err) {
    return (err as Error).message;
  }
}

/** One check: whether it passed, and a problem when the check itself is malformed (not merely unmet). */
function runCheck(op: string, arg: unknown, r: string, tools: readonly string[]): { ok: boolean; problem: string } {
  const a = arg === undefined || arg === null ? "" : String(arg);
  switch (op) {
    case "section_present":
      return { ok: sectionPresent(r, a), problem: "" };
    case "section_contains":
      return { ok: sectionContains(r, a), problem: "" };
    case "regex": {
      const re = compile(a);
      return typeof re === "string" ? { ok: false, problem: `invalid regex (${re})` } : { ok: re.test(r), problem: "" };
    }
    case "max_chars":
    case "min_chars": {
      const bound = charBound(arg);
      if (bound === null) return { ok: false, problem: "not an integer bound" };
      return { ok: op === "max_chars" ? r.length <= bound : r.length >= bound, problem: "" };
    }
    case "contains":
      return { ok: r.toLowerCase().includes(a.toLowerCase()), problem: "" };
    case "not_contains":
      return { ok: !r.toLowerCase().includes(a.toLowerCase()), problem: "" };
    case "no_refusal":
      return { ok: !isRefusal(r), problem: "" };
    case "tool_called":
      return { ok: toolWasCalled(a, r, tools), problem: "" };
    default:
      return { ok: true, problem: "" }; // unknown operators never block (validateChecks warns about them)
  }
}

/** A recorded call of the tool, or the single-shot convention: the reply says `TOOL_CALL: name`. */
export function toolWasCalled(name: string, response: string, tools: readonly string[]): boolean {
  const lower = name.toLowerCase();
  if (tools.some((t) => t.toLowerCase() === lower)) return true;
  return new RegExp(`\\btool_call\\s*:\\s*${escapeRegex(name)}\\b`, "i").test(response);
}

function checksOf(judge: RuleJudge | null | undefined): RuleCheck[] {
  const raw = judge?.checks;
  if (!Array.isArray(raw)) return [];
  return raw.map((c) =>
    typeof c === "object" && c !== null
      ? { op: String((c as { op?: unknown }).op ?? ""), arg: (c as { arg?: unknown }).arg }
      : { op: "" },
  );
}

export interface JudgeScore {
  hard: number;
  soft: number;
  rationale: string;
}

/** hard = every check passed; soft = the share that passed; the rationale names each failure as `op=arg`. */
export function scoreRuleJudge(judge: RuleJudge, response: string, tools: readonly string[] = []): JudgeScore {
  const checks = checksOf(judge);
  if (checks.length === 0) return { hard: 0, soft: 0, rationale: "no checks" };
  const failed: string[] = [];
  for (const c of checks) {
    const { ok, problem } = runCheck(c.op, c.arg, response, tools);
    if (!ok)
      failed.push(
        `${c.op}=${c.arg === undefined || c.arg === null ? "None" : String(c.arg)}${problem ? ` [${problem}]` : ""}`,
      );
  }
  const passed = checks.length - failed.length;
  const hard = failed.length === 0 ? 1 : 0;
  return { hard, soft: passed / checks.length, rationale: hard ? "all checks passed" : `failed: ${failed.join(", ")}` };
}

/** True when every check only constrains formatting. */
export function isShapeOnly(judge: RuleJudge | null | undefined): boolean {
  const raw = judge?.checks;
  if (!Array.isArray(raw) || raw.length === 0) return false;
  return raw.every((c) => typeof c === "object" && c !== null && SHAPE_OPS.has(String((c as { op?: unknown }).op)));
}

/**
 * Errors (a check that can never work as written: a regex that does not compile, a missing argument, a
 * bad bound) and warnings (accepted but toothless: an unknown operator, `min_chars=0`, a shape-only judge).
 */
export function validateChecks(judge: unknown): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (judge !== null && judge !== undefined && (typeof judge !== "object" || Array.isArray(judge))) {
    return { errors: [`judge must be an object, got ${Array.isArray(judge) ? "array" : typeof judge}`], warnings };
  }
  const checks = (judge as RuleJudge | null | undefined)?.checks ?? [];
  if (!Array.isArray(checks)) return { errors: [`judge 'checks' must be an array, got ${typeof checks}`], warnings };
  checks.forEach((c, i) => {
    if (typeof c !== "object" || c === null || Array.isArray(c)) {
      errors.push(`check #${i} is not an object`);
      return;
    }
    const { op, arg } = c as { op?: unknown; arg?: unknown };
    if (typeof op !== "string") {
      errors.push(`check #${i} op must be a string, got ${op === undefined ? "nothing" : typeof op}`);
      return;
    }
    if (STRING_ARG_OPS.has(op) && (arg === undefined || arg === null || String(arg).trim() === "")) {
      errors.push(`check #${i} ${op} needs a non-empty arg`);
      return;
    }
    if (op === "regex") {
      const re = compile(String(arg));
      if (typeof re === "string") errors.push(`check #${i} regex does not compile (${re}): ${JSON.stringify(arg)}`);
    } else if (op === "max_chars" || op === "min_chars") {
      const bound = charBound(arg);
      if (bound === null)
        errors.push(`check #${i} ${op} needs an integer arg, got ${JSON.stringify(arg) ?? "nothing"}`);
      else if (bound < 0) errors.push(`check #${i} ${op} cannot be negative, got ${bound}`);
      else if (op === "min_chars" && bound === 0) warnings.push(`check #${i} min_chars=0 always passes`);
    } else if (!KNOWN_OPS.has(op)) {
      warnings.push(`check #${i} has unknown op '${op}' — it always passes`);
    }
  });
  if (errors.length === 0 && isShapeOnly(judge as RuleJudge)) {
    warnings.push(
      "judge is shape-only (formatting checks); it can be satisfied by reformatting rather than by a better answer",
    );
  }
  return { errors, warnings };
}

/** Lower case, non-word characters to spaces, whitespace collapsed. */
export function normaliseAnswer(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** 1 when the normalised reference occurs in (or equals) the normalised response. */
export function exactScore(reference: string, response: string): number {
  const ref = normaliseAnswer(reference);
  if (ref === "") return 0;
  const resp = normaliseAnswer(response);
  return resp.includes(ref) || resp === ref ? 1 : 0;
}

/** The share of the reference's distinct words (longer than two characters) found in the response. */
export function keywordSoftScore(reference: string, response: string): number {
  const words = [
    ...new Set(
      normaliseAnswer(reference)
        .split(" ")
        .filter((w) => w.length > 2),
    ),
  ];
  if (words.length === 0) return 0;
  const resp = normaliseAnswer(response);
  return words.filter((w) => resp.includes(w)).length / words.length;
}

/** The exact judge: hard = exact match; soft = max(hard, keyword overlap). */
export function scoreExact(reference: string, response: string): JudgeScore {
  const hard = exactScore(reference, response);
  return { hard, soft: Math.max(hard, keywordSoftScore(reference, response)), rationale: `exact-match=${hard}` };
}
