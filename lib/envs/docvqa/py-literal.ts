/**
 * A small reader for Python literals as they appear in DocVQA CSV cells: `str(list_of_answers)` gives
 * `['a', "b's"]`, dicts give `{'text': 'x'}`. Supports strings (single/double quotes, `r`/`u`/`b`
 * prefixes, the usual backslash escapes, adjacent-literal concatenation), numbers, None/True/False,
 * lists, tuples and dicts. Anything else → undefined (the caller then treats the cell as plain text).
 */

type Cursor = { text: string; pos: number };

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "\n": "",
};

class LiteralError extends Error {}

function skipSpace(c: Cursor): void {
  while (c.pos < c.text.length && /\s/.test(c.text[c.pos] as string)) c.pos += 1;
}

function fail(): never {
  throw new LiteralError("not a Python literal");
}

function readEscape(c: Cursor): string {
  const ch = c.text[c.pos] ?? fail();
  c.pos += 1;
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return simple;
  const width = ch === "x" ? 2 : ch === "u" ? 4 : ch === "U" ? 8 : 0;
  if (width > 0) {
    const hex = c.text.slice(c.pos, c.pos + width);
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) fail();
    c.pos += width;
    return String.fromCodePoint(Number.parseInt(hex, 16));
  }
  if (/[0-7]/.test(ch)) {
    const oct = (ch + c.text.slice(c.pos, c.pos + 2)).match(/^[0-7]{1,3}/)?.[0] ?? ch;
    c.pos += oct.length - 1;
    return String.fromCodePoint(Number.parseInt(oct, 8));
  }
  return `\\${ch}`; // Python keeps unknown escapes verbatim
}

function readOneString(c: Cursor): string {
  const prefix = /^[rRuUbB]{0,2}/.exec(c.text.slice(c.pos))?.[0] ?? "";
  const raw = /r/i.test(prefix);
  c.pos += prefix.length;
  const quote = c.text[c.pos];
  if (quote !== "'" && quote !== '"') fail();
  const triple = c.text.startsWith(quote.repeat(3), c.pos);
  const close = triple ? quote.repeat(3) : quote;
  c.pos += close.length;
  let out = "";
  for (;;) {
    if (c.pos >= c.text.length) fail();
    if (c.text.startsWith(close, c.pos)) {
      c.pos += close.length;
      return out;
    }
    const ch = c.text[c.pos] as string;
    if (ch === "\n" && !triple) fail();
    c.pos += 1;
    if (ch !== "\\") out += ch;
    else if (raw) out += `\\${c.text[c.pos++] ?? fail()}`;
    else out += readEscape(c);
  }
}

function startsString(c: Cursor): boolean {
  return /^[rRuUbB]{0,2}['"]/.test(c.text.slice(c.pos, c.pos + 3));
}

function readString(c: Cursor): string {
  let out = readOneString(c);
  for (;;) {
    const save = c.pos;
    skipSpace(c);
    if (!startsString(c)) {
      c.pos = save;
      return out;
    }
    out += readOneString(c);
  }
}

/** Items up to `close`; a parenthesised single value without a comma is that value (Python: `(5)` is 5). */
function readSequence(c: Cursor, close: string): unknown {
  const out: unknown[] = [];
  let comma = false;
  for (;;) {
    skipSpace(c);
    if (c.text[c.pos] === close) {
      c.pos += 1;
      return close === ")" && out.length === 1 && !comma ? out[0] : out;
    }
    out.push(readValue(c));
    skipSpace(c);
    comma = c.text[c.pos] === ",";
    if (comma) c.pos += 1;
    else if (c.text[c.pos] !== close) fail();
  }
}

function readDict(c: Cursor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (;;) {
    skipSpace(c);
    if (c.text[c.pos] === "}") {
      c.pos += 1;
      return out;
    }
    const key = readValue(c);
    skipSpace(c);
    if (c.text[c.pos] !== ":") fail();
    c.pos += 1;
    out[String(key)] = readValue(c);
    skipSpace(c);
    if (c.text[c.pos] === ",") c.pos += 1;
    else if (c.text[c.pos] !== "}") fail();
  }
}

const WORDS: Record<string, unknown> = { None: null, True: true, False: false };

function readValue(c: Cursor): unknown {
  skipSpace(c);
  const ch = c.text[c.pos];
  const opener = ch === "[" ? "]" : ch === "(" ? ")" : ch === "{" ? "}" : null;
  if (opener !== null) {
    c.pos += 1;
    return opener === "}" ? readDict(c) : readSequence(c, opener);
  }
  if (startsString(c)) return readString(c);
  const rest = c.text.slice(c.pos);
  const word = /^(None|True|False)\b/.exec(rest)?.[1];
  const num = /^[-+]?(\d[\d_]*\.?\d*(e[-+]?\d+)?|\.\d+(e[-+]?\d+)?)/i.exec(rest)?.[0];
  const token = word ?? num ?? fail();
  c.pos += token.length;
  return word !== undefined ? WORDS[word] : Number(token.replace(/_/g, ""));
}

/** The value of a Python literal, or undefined when `text` is not one (trailing text is not allowed). */
export function parsePythonLiteral(text: string): unknown {
  const c: Cursor = { text, pos: 0 };
  try {
    const value = readValue(c);
    skipSpace(c);
    return c.pos === text.length ? value : undefined;
  } catch (err) {
    if (err instanceof LiteralError) return undefined;
    throw err;
  }
}
