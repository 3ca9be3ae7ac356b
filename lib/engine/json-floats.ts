/**
 * JSON.parse turns `1.0` into the same number as `1`; Python's json.loads gives a float and an int. Where
 * the original's decision depends on that type (ranking indices must be ints), the reply is parsed a
 * second time with every fraction/exponent number lexeme outside strings replaced by a string marker.
 */
import { extractJson } from "./json-extract";

/** The string that stands for a float lexeme in a marked parse. */
export const FLOAT_MARK = "\u0000float:";

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** `text` with each number lexeme that has a fraction or exponent (outside "…" strings) quoted and marked. */
export function markFloatLexemes(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      out += c;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      i++;
      continue;
    }
    const prev = i > 0 ? text[i - 1]! : "";
    if ((c === "-" || (c >= "0" && c <= "9")) && !/[\w.]/.test(prev)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m) {
        out += m[1] !== undefined || m[2] !== undefined ? JSON.stringify(FLOAT_MARK + m[0]) : m[0];
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** True when `v` came from a float lexeme in a marked parse. */
export function isFloatMark(v: unknown): boolean {
  return typeof v === "string" && v.startsWith(FLOAT_MARK);
}

/**
 * `key` of the object in `text`, parsed with float lexemes marked, when it is a list of the same length as
 * `plain` (the same list as the ordinary parse found); otherwise `plain` unchanged.
 */
export function listWithFloatMarks(text: string, key: string, plain: unknown): unknown {
  if (!Array.isArray(plain)) return plain;
  const marked = extractJson(markFloatLexemes(text));
  const list =
    marked !== null && typeof marked === "object" && !Array.isArray(marked)
      ? (marked as Record<string, unknown>)[key]
      : undefined;
  return Array.isArray(list) && list.length === plain.length ? list : plain;
}
