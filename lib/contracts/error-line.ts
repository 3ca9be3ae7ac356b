/**
 * The one-line form of an error that a run stores and the API and pages show. Errors thrown deep in the
 * stack carry things a user must not see and cannot use: stack frames, Prisma's multi-line invocation dumps
 * with a code frame, and absolute paths of the server's source files. The full error goes to the worker log
 * (with the run id); this line is what is stored.
 */

/** Longest line kept; the rest is in the worker log. */
export const ERROR_LINE_MAX = 300;

const STACK_FRAME = /^\s*at\s+\S/;
const PRISMA_INVOCATION = /Invalid `[^`]+` invocation/;
/** Prisma's code frame: "  168 export async …", "→ 171   await db…", and the bare path line above it. */
const PRISMA_FRAME = /^(?:→\s*)?\d+\s|^(?:\/|[A-Za-z]:\\)\S+:\d+:\d+$|^Invalid `/;
/** An absolute path to a source or compiled file, with an optional :line:col; only its file name is kept. */
const SOURCE_PATH = /(?:file:\/\/)?(?:\/[^\s'"():/]+)+\/([^\s/'"():]+\.(?:[cm]?[jt]sx?|node|wasm))(?::\d+){0,2}/g;
const SECRETS: ReadonlyArray<[RegExp, string]> = [
  [/\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{8,}/g, "$1…"],
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, "$1…"],
  [/\b((?:api[_-]?key|token|secret|password)\s*[=:]\s*)[^\s,;'"]{4,}/gi, "$1…"],
];

function messageOf(err: unknown): string {
  if (typeof err === "string") return err;
  if (err && typeof err === "object") {
    const issues = (err as { issues?: unknown }).issues;
    if (Array.isArray(issues) && issues.length > 0) return issueLine(issues[0]);
    const user = (err as { userMessage?: unknown }).userMessage;
    if (typeof user === "string" && user.trim()) return user;
    const msg = (err as { message?: unknown }).message;
    if (typeof msg === "string") return msg;
  }
  return err === undefined || err === null ? "" : String(err);
}

function issueLine(issue: unknown): string {
  const i = (issue ?? {}) as { path?: unknown; message?: unknown };
  const path = Array.isArray(i.path) ? i.path.join(".") : "";
  const msg = typeof i.message === "string" ? i.message : "invalid value";
  return path ? `${path}: ${msg}` : msg;
}

/** A zod error's message is its issues as JSON; a stored copy of one reads better as its first issue. */
function fromIssueJson(text: string): string | null {
  if (!text.trimStart().startsWith("[")) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) &&
      parsed.length > 0 &&
      typeof (parsed[0] as { message?: unknown })?.message === "string"
      ? issueLine(parsed[0])
      : null;
  } catch {
    return null;
  }
}

function meaningfulLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !STACK_FRAME.test(l));
}

function prismaLine(text: string): string {
  const reason = meaningfulLines(text)
    .filter((l) => !PRISMA_FRAME.test(l))
    .at(-1);
  return `database error: ${reason ?? "the query failed"}`;
}

/** One clean line for any thrown value (or a stored message): no stack, no dump, no source paths. */
export function errorLine(err: unknown): string {
  const raw = messageOf(err);
  let line = fromIssueJson(raw) ?? (PRISMA_INVOCATION.test(raw) ? prismaLine(raw) : meaningfulLines(raw).join(" "));
  line = line
    .replace(SOURCE_PATH, "$1")
    .replace(/^Error:\s+/, "")
    .replace(/\s+/g, " ")
    .trim();
  for (const [re, to] of SECRETS) line = line.replace(re, to);
  if (!line) return "unknown error";
  return line.length > ERROR_LINE_MAX ? `${line.slice(0, ERROR_LINE_MAX - 1)}…` : line;
}
