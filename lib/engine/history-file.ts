/**
 * history.json's text, built from each step record's JSON text serialised once. The file is rewritten at
 * every commit (the original's layout, and what a resume reads); re-serialising every record each time
 * made a 1,000-step run spend O(steps²) in JSON.stringify. A committed record is final — nothing changes
 * it after its commit — so its text is kept for the life of the record object.
 *
 * The joined text of a run's records is kept too (by the run's first record), so a commit that adds a
 * record appends its text instead of joining every earlier one again: re-joining 1,000 records (about
 * 1.4 MB) at every step cost as much as encoding the file for the write.
 */
import type { StepRecord } from "./types";

const TEXT = new WeakMap<StepRecord, string>();
/** Per run (its first record): the records joined so far, in order, and their joined text. */
const JOINED = new WeakMap<StepRecord, { records: StepRecord[]; text: string }>();

function recordText(rec: StepRecord): string {
  let text = TEXT.get(rec);
  if (text === undefined) {
    // An element of an array indented by 2 is the element's own text with every line pushed in by 2. Joined
    // rather than replaced: V8 builds a global replace's result as a rope (two nodes and a slice per line,
    // ≈ 4 KB per record kept for the whole run); a join gives one flat string.
    text = `  ${JSON.stringify(rec, null, 2).split("\n").join("\n  ")}`;
    TEXT.set(rec, text);
  }
  return text;
}

/** True when `records` starts with exactly the record objects of `prefix`. */
function startsWith(records: readonly StepRecord[], prefix: readonly StepRecord[]): boolean {
  if (prefix.length > records.length) return false;
  for (let i = 0; i < prefix.length; i++) if (records[i] !== prefix[i]) return false;
  return true;
}

/** `JSON.stringify(records, null, 2)` — the same bytes — reusing the text of records seen before. */
export function historyJsonText(records: readonly StepRecord[]): string {
  if (records.length === 0) return "[]";
  const first = records[0]!;
  let joined = JOINED.get(first);
  if (!joined || !startsWith(records, joined.records)) {
    joined = { records: [first], text: recordText(first) };
    JOINED.set(first, joined);
  }
  for (let i = joined.records.length; i < records.length; i++) {
    const rec = records[i]!;
    joined.records.push(rec);
    joined.text = `${joined.text},\n${recordText(rec)}`;
  }
  return `[\n${joined.text}\n]`;
}
