/**
 * history.json's text, built from each step record's JSON text serialised once. The file is rewritten at
 * every commit (the original's layout, and what a resume reads); re-serialising every record each time
 * made a 1,000-step run spend O(steps²) in JSON.stringify. A committed record is final — nothing changes
 * it after its commit — so its text is kept for the life of the record object.
 */
import type { StepRecord } from "./types";

const TEXT = new WeakMap<StepRecord, string>();

/** `JSON.stringify(records, null, 2)` — the same bytes — reusing the text of records seen before. */
export function historyJsonText(records: readonly StepRecord[]): string {
  if (records.length === 0) return "[]";
  const parts = records.map((rec) => {
    let text = TEXT.get(rec);
    if (text === undefined) {
      // An element of an array indented by 2 is the element's own text with every line pushed in by 2.
      text = `  ${JSON.stringify(rec, null, 2).replace(/\n/g, "\n  ")}`;
      TEXT.set(rec, text);
    }
    return text;
  });
  return `[\n${parts.join(",\n")}\n]`;
}
