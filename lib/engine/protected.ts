/**
 * The two machine-managed regions at the tail of a skill: the slow-update guidance field (spec §10.1)
 * and the execution-notes appendix (spec §7.9). Step edits must never touch them (spec §7.7.1), and both
 * are rebuilt at the document end whenever they are rewritten.
 */
import { pyCasefoldKey, pyCollapseWhitespace, pyRstrip, pyStrip } from "./py-format";

export const SLOW_UPDATE_START = "<!-- SLOW_UPDATE_START -->";
export const SLOW_UPDATE_END = "<!-- SLOW_UPDATE_END -->";
export const APPENDIX_START = "<!-- APPENDIX_START -->";
export const APPENDIX_END = "<!-- APPENDIX_END -->";

/** Every marker, in the order they are scrubbed from edit content. */
export const PROTECTED_MARKERS: readonly string[] = [SLOW_UPDATE_START, SLOW_UPDATE_END, APPENDIX_START, APPENDIX_END];

/** Fixed heading line of the appendix block (our wording; readers accept any number of `#`). */
export const APPENDIX_HEADING = "## Execution Notes Appendix";

const HEADING_LINE = /^#+\s*Execution Notes Appendix$/;
const TRAILING_PUNCT = " .;:,_-";

/**
 * `[start, end)` of each protected region: first START to first END + its length, slow update first.
 * Only the first occurrence of each marker counts (spec §21 item 11); a pair with END before START
 * yields an empty interval that contains no position but still "exists" for append placement.
 */
export function protectedRegions(doc: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  for (const [start, end] of [
    [SLOW_UPDATE_START, SLOW_UPDATE_END],
    [APPENDIX_START, APPENDIX_END],
  ] as const) {
    const s = doc.indexOf(start);
    const e = doc.indexOf(end);
    if (s >= 0 && e >= 0) regions.push([s, e + end.length]);
  }
  return regions;
}

/**
 * A full rewrite of `doc` with its protected regions kept as they were: whatever the model returned
 * inside (or instead of) the regions is dropped, stray markers are scrubbed, and the regions of `doc`
 * (first START through first END of each kind, verbatim) are re-attached at the end in their order.
 */
export function reattachProtected(doc: string, rewritten: string): string {
  let body = rewritten;
  for (const [start, end] of [
    [SLOW_UPDATE_START, SLOW_UPDATE_END],
    [APPENDIX_START, APPENDIX_END],
  ] as const) {
    body = stripMarkedBlocks(body, start, end);
  }
  body = scrubMarkers(body);
  // Only close the gaps a removed region left; the model's own spacing is otherwise kept.
  body = pyRstrip(body === rewritten ? body : collapseBlankRuns(body).replace(/^\n+/, ""));
  const blocks = protectedRegions(doc)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0])
    .map(([s, e]) => doc.slice(s, e));
  return blocks.length === 0 ? `${body}\n` : `${body}\n\n${blocks.join("\n\n")}\n`;
}

/** `text` with every protected marker removed. */
export function scrubMarkers(text: string): string {
  let out = text;
  for (const marker of PROTECTED_MARKERS) out = out.split(marker).join("");
  return out;
}

/** Text between the first START and the first END, trimmed; "" when either is missing or out of order. */
function between(doc: string, start: string, end: string): string {
  const s = doc.indexOf(start);
  const e = doc.indexOf(end);
  if (s < 0 || e < 0) return "";
  return pyStrip(doc.slice(s + start.length, e));
}

/**
 * Remove each START through the next END after it; a START with no END after it is removed alone.
 * Stray END markers are left for the caller. Written as a scan so it stays linear on hostile input.
 */
export function stripMarkedBlocks(doc: string, start: string, end: string): string {
  let out = "";
  let pos = 0;
  for (;;) {
    const s = doc.indexOf(start, pos);
    if (s < 0) break;
    const e = doc.indexOf(end, s + start.length);
    if (e < 0) {
      // No END anywhere after this START, so every remaining START is an orphan.
      return out + doc.slice(pos).split(start).join("");
    }
    out += doc.slice(pos, s);
    pos = e + end.length;
  }
  return out + doc.slice(pos);
}

function collapseBlankRuns(doc: string): string {
  // Same fixed point as repeatedly replacing "\n\n\n" with "\n\n".
  return doc.replace(/\n{3,}/g, "\n\n");
}

/** Add an empty slow-update field at the end unless both markers are already present. */
export function injectEmptySlowUpdate(doc: string): string {
  if (doc.includes(SLOW_UPDATE_START) && doc.includes(SLOW_UPDATE_END)) return doc;
  return `${pyRstrip(doc)}\n\n${SLOW_UPDATE_START}\n${SLOW_UPDATE_END}\n`;
}

/** The current slow-update guidance, trimmed ("" when there is no field). */
export function extractSlowUpdate(doc: string): string {
  return between(doc, SLOW_UPDATE_START, SLOW_UPDATE_END);
}

/** Replace every slow-update field with exactly one holding `content`, at the document end. */
export function replaceSlowUpdate(doc: string, content: string): string {
  const stripped = stripMarkedBlocks(doc, SLOW_UPDATE_START, SLOW_UPDATE_END).split(SLOW_UPDATE_END).join("");
  const base = pyRstrip(collapseBlankRuns(stripped));
  return `${base}\n\n${SLOW_UPDATE_START}\n${pyStrip(content)}\n${SLOW_UPDATE_END}\n`;
}

/** Add an empty appendix at the end unless both markers are already present. */
export function injectEmptyAppendix(doc: string): string {
  if (doc.includes(APPENDIX_START) && doc.includes(APPENDIX_END)) return doc;
  return `${pyRstrip(doc)}\n\n${APPENDIX_START}\n${APPENDIX_HEADING}\n${APPENDIX_END}\n`;
}

/** The bullet notes of the (first) appendix, without the heading and bullet markers. */
export function readAppendixNotes(doc: string): string[] {
  const notes: string[] = [];
  for (const raw of between(doc, APPENDIX_START, APPENDIX_END).split("\n")) {
    const line = pyStrip(raw);
    if (line === "" || HEADING_LINE.test(line)) continue;
    let note = line;
    if (note.startsWith("- ")) note = note.slice(2);
    else if (note.startsWith("-") || note.startsWith("*")) note = note.slice(1);
    note = pyStrip(note);
    if (note !== "") notes.push(note);
  }
  return notes;
}

/**
 * Order-preserving dedup: whitespace collapsed, empties dropped, and two notes are the same when they
 * match after stripping trailing ` .;:,_-` and case-folding. The first spelling wins.
 * Deliberate deviation: protected markers are scrubbed from notes (as they are from edit content), so an
 * LLM-written marker can never split the appendix or leave a second region behind.
 */
export function dedupNotes(notes: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of notes) {
    const note = pyCollapseWhitespace(scrubMarkers(raw));
    if (note === "") continue;
    let end = note.length;
    while (end > 0 && TRAILING_PUNCT.includes(note[end - 1]!)) end--;
    const key = pyCasefoldKey(note.slice(0, end));
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(note);
  }
  return out;
}

/**
 * Remove every appendix block, innermost first (each END pairs with the last START before it), then
 * every stray END. An orphan START with no END after it is kept, as in the original.
 */
function removeAppendixBlocks(doc: string): string {
  let out = doc;
  let from = 0;
  for (;;) {
    const e = out.indexOf(APPENDIX_END, from);
    if (e < 0) break;
    const s = out.lastIndexOf(APPENDIX_START, e);
    if (s < 0) {
      from = e + APPENDIX_END.length;
      continue;
    }
    out = out.slice(0, s) + out.slice(e + APPENDIX_END.length);
    from = s;
  }
  return out.split(APPENDIX_END).join("");
}

function writeAppendix(doc: string, notes: readonly string[]): string {
  const base = pyRstrip(collapseBlankRuns(removeAppendixBlocks(doc)));
  const block = [APPENDIX_START, APPENDIX_HEADING, ...notes.map((n) => `- ${n}`), APPENDIX_END].join("\n");
  return `${base}\n\n${block}\n`;
}

/** Merge `notes` into the appendix (existing first, deduplicated); the appendix moves to the end. */
export function appendToAppendix(doc: string, notes: readonly string[]): string {
  const merged = dedupNotes([...readAppendixNotes(doc), ...dedupNotes(notes)]);
  return writeAppendix(doc, merged);
}

/** Replace the appendix notes with exactly `notes` (deduplicated), e.g. after consolidation. */
export function rebuildAppendix(doc: string, notes: readonly string[]): string {
  return writeAppendix(doc, dedupNotes(notes));
}

/**
 * The `appendix_notes` of an analyst result: a string is one note, a list holds strings or
 * `{note | content}` objects, anything else yields none. A `note` that is not a non-empty string falls
 * through to `content`; elements that end up non-string are dropped (Python would `str()` some of them).
 */
export function extractAppendixNotesFromResult(result: unknown): string[] {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return [];
  const raw = (result as Record<string, unknown>).appendix_notes;
  const list: unknown[] = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : [];
  const notes: string[] = [];
  for (const item of list) {
    let text: unknown = item;
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const rec = item as Record<string, unknown>;
      // Python `item.get("note") or item.get("content")`: an empty note falls through to content.
      text = typeof rec.note === "string" && rec.note !== "" ? rec.note : rec.content;
    }
    if (typeof text !== "string") continue;
    const note = pyStrip(text);
    if (note !== "") notes.push(note);
  }
  return notes;
}
