/**
 * The trace of one exec call: a short, bounded text summary of what the CLI did (commands run, files
 * read, errors, tokens), with anything that looks like a secret replaced by `[redacted]`.
 */
import type { ExecEnv } from "./types";

/** Upper bound of a whole trace, in characters. */
export const TRACE_MAX_CHARS = 6000;
/** Upper bound of one trace line, in characters. */
export const TRACE_LINE_MAX = 300;

const REDACTED = "[redacted]";
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/gi, `$1 ${REDACTED}`],
  [
    /\b([A-Za-z_]*(?:api[_-]?key|token|secret|password|passwd|authorization)[A-Za-z_]*)(\s*[=:]\s*)(?!Bearer\b|Basic\b|\[redacted\])["']?[^\s"',;]{4,}["']?/gi,
    `$1$2${REDACTED}`,
  ],
];

/** `text` with secret-looking values and the values of the child's secret variables replaced. */
export function redactSecrets(text: string, env: ExecEnv = {}): string {
  let out = text;
  for (const [key, value] of Object.entries(env)) {
    if (value && value.length >= 6 && SECRET_NAME.test(key)) out = out.split(value).join(REDACTED);
  }
  for (const [re, replacement] of SECRET_PATTERNS) out = out.replace(re, replacement);
  return out;
}

/** One line: whitespace runs collapsed (newlines shown as ↵), cut to TRACE_LINE_MAX characters. */
export function traceLine(text: string): string {
  const flat = text
    .replace(/\r?\n/g, " ↵ ")
    .replace(/[ \t]+/g, " ")
    .trim();
  return flat.length > TRACE_LINE_MAX ? `${flat.slice(0, TRACE_LINE_MAX - 1)}…` : flat;
}

/**
 * Joins the trace lines, redacted and bounded: when the whole would exceed TRACE_MAX_CHARS, the first
 * and last lines are kept and the middle is replaced by a count of the omitted lines.
 */
export function buildTrace(lines: string[], env: ExecEnv = {}): string {
  const clean = lines.map((l) => traceLine(redactSecrets(l, env))).filter((l) => l !== "");
  const total = clean.reduce((n, l) => n + l.length + 1, 0);
  if (total <= TRACE_MAX_CHARS) return clean.join("\n");
  const half = Math.floor((TRACE_MAX_CHARS - 40) / 2);
  const head: string[] = [];
  let used = 0;
  for (const l of clean) {
    if (used + l.length + 1 > half) break;
    head.push(l);
    used += l.length + 1;
  }
  const tail: string[] = [];
  used = 0;
  for (let i = clean.length - 1; i >= head.length; i--) {
    const l = clean[i]!;
    if (used + l.length + 1 > half) break;
    tail.unshift(l);
    used += l.length + 1;
  }
  const omitted = clean.length - head.length - tail.length;
  return [...head, `… ${omitted} trace lines omitted …`, ...tail].join("\n");
}

/** A summary line of how a final answer looks (tagged, plain text, or missing). */
export function answerShape(answer: string): string {
  const text = answer.trim();
  if (text === "") return "answer: missing";
  const tagged = /<answer>[\s\S]*?<\/answer>/i.test(text);
  return `answer: ${text.length} chars, ${tagged ? "inside <answer> tags" : "plain text"}`;
}
