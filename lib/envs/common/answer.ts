/**
 * Answer extraction shared by the QA benchmarks: the final answer is the content of the last
 * `<answer>…</answer>` tag; replies that forgot the tag fall back to their last non-empty line.
 */

const ANSWER_TAG = /<answer>([\s\S]*?)<\/answer>/gi;

/** The content of the LAST `<answer>` tag (case-insensitive, spans lines), else the last non-empty line, else the whole text; trimmed. */
export function extractFinalAnswer(text: string): string {
  let last: string | undefined;
  for (const m of text.matchAll(ANSWER_TAG)) last = m[1];
  if (last !== undefined) return last.trim();
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const tail = lines[lines.length - 1];
  return tail ?? text.trim();
}

/** True when the reply contains an opening `<answer>` tag (used to stop refinement turns early). */
export function hasAnswerTag(text: string): boolean {
  return /<answer>/i.test(text);
}

/** Python-style list rendering for failure reasons: `['a', 'b']`. */
export function formatList(values: readonly string[]): string {
  return `[${values.map((v) => `'${v}'`).join(", ")}]`;
}
