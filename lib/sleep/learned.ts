/**
 * The learned region of a skill or memory document (spec D.7): Sleep's edits only ever touch a block
 * between two HTML-comment markers, holding a fixed heading, a one-line banner and `- ` bullet lines.
 * Everything outside the block is the user's and is never modified.
 */
import type { EditRecord } from "./types";

export const LEARNED_START = "<!-- SKILLOPT-SLEEP:LEARNED START -->";
export const LEARNED_END = "<!-- SKILLOPT-SLEEP:LEARNED END -->";
export const LEARNED_HEADING = "## Learned preferences & procedures";
export const LEARNED_BANNER =
  "_SkillOpt-Sleep maintains this block. Its rules were proposed offline from your past sessions, checked against held-out tasks, and adopted only after you approved them. Text outside this block is never changed._";

/** The text between the first START and the first END, trimmed ("" when either is missing). */
export function extractLearned(doc: string): string {
  const s = doc.indexOf(LEARNED_START);
  const e = doc.indexOf(LEARNED_END);
  if (s < 0 || e < 0) return "";
  return doc.slice(s + LEARNED_START.length, e).trim();
}

/** `doc` without any learned block (an unterminated START cuts the rest), blank runs collapsed. */
function stripLearned(doc: string): string {
  let out = doc;
  for (;;) {
    const s = out.indexOf(LEARNED_START);
    if (s < 0) break;
    const e = out.indexOf(LEARNED_END, s);
    out = e < 0 ? out.slice(0, s) : out.slice(0, s) + out.slice(e + LEARNED_END.length);
  }
  return out.replace(/\n{3,}/g, "\n\n").trimEnd();
}

/** The bullet lines of the learned block, without their `- `. */
export function learnedLines(doc: string): string[] {
  const out: string[] = [];
  for (const raw of extractLearned(doc).split("\n")) {
    const line = raw.trim();
    if (line.startsWith("- ")) out.push(line.slice(2).trim());
  }
  return out;
}

/** `doc` with its learned block (re)written at the end, holding `lines` as bullets. */
export function setLearned(doc: string, lines: readonly string[]): string {
  const base = stripLearned(doc);
  const body = lines
    .filter((l) => l.trim() !== "")
    .map(
      (l) =>
        `- ${l
          .trim()
          .replace(/^[-\s]+/, "")
          .trim()}`,
    )
    .join("\n");
  const block = `\n\n${LEARNED_START}\n${LEARNED_HEADING}\n\n${LEARNED_BANNER}\n\n${body}\n${LEARNED_END}\n`;
  return (base + block).replace(/^\n+/, "");
}

function norm(s: string): string {
  return s.toLowerCase().replace(/\s+/g, " ").trim();
}

export interface ApplyResult {
  doc: string;
  applied: EditRecord[];
  /** Edits that left the document unchanged; they never reach the gate. */
  unmatched: EditRecord[];
}

/**
 * Applies edits to the learned block in order. `add` skips empties and duplicates (whitespace- and
 * case-insensitive); `delete` removes the lines whose normalised text contains the anchor (or the content
 * when there is no anchor); `replace` swaps the matching lines. An edit that changes nothing, or has an
 * unknown op, is unmatched.
 */
export function applyEdits(doc: string, edits: readonly EditRecord[]): ApplyResult {
  let lines = learnedLines(doc);
  let seen = new Set(lines.map(norm));
  const applied: EditRecord[] = [];
  const unmatched: EditRecord[] = [];
  for (const e of edits) {
    const op = (e.op || "add").toLowerCase();
    if (op === "add") {
      const n = norm(e.content);
      if (n === "" || seen.has(n)) {
        unmatched.push(e);
        continue;
      }
      lines.push(e.content.trim());
      seen.add(n);
      applied.push(e);
    } else if (op === "delete") {
      const anchor = norm(e.anchor || e.content);
      const keep = anchor === "" ? lines : lines.filter((l) => !norm(l).includes(anchor));
      if (keep.length === lines.length) {
        unmatched.push(e);
        continue;
      }
      lines = keep;
      seen = new Set(lines.map(norm));
      applied.push(e);
    } else if (op === "replace") {
      const anchor = norm(e.anchor);
      const replacement = e.content.trim();
      let changed = false;
      const next = lines.map((l) => {
        if (anchor === "" || !norm(l).includes(anchor)) return l;
        if (replacement !== l) changed = true;
        return replacement;
      });
      if (!changed) {
        unmatched.push(e);
        continue;
      }
      lines = next;
      seen = new Set(lines.map(norm));
      applied.push(e);
    } else {
      unmatched.push(e);
    }
  }
  return { doc: setLearned(doc, lines), applied, unmatched };
}

/** A SKILL.md needs front matter for agents to load it; an empty one gets front matter and a title. */
export function ensureSkillScaffold(doc: string, name: string, description: string): string {
  if (doc.trimStart().startsWith("---")) return doc;
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nPreferences and procedures learned from your past local agent sessions.\n${doc}`;
}
