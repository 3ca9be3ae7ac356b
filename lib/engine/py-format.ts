/**
 * Python-compatible text helpers. Prompt texts and persisted records of the original were produced by
 * Python's `repr()`, `str(float)`, `str.strip()` and `str.casefold()`; a few of those strings reach the
 * optimizer LLM verbatim, so we reproduce them exactly where it is cheap to do so (spec §21 item 20).
 */

/**
 * Every code point for which Python's `str.isspace()` is true. JS `\s` differs: it lacks \x1c–\x1f and
 * \x85 and adds \ufeff, so `String.prototype.trim` is not a faithful `str.strip()`.
 */
export const PY_WS_CLASS =
  "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const LEADING_WS = new RegExp(`^[${PY_WS_CLASS}]+`);
const WS_CHAR = new RegExp(`^[${PY_WS_CLASS}]$`);
const WS_RUN = new RegExp(`[${PY_WS_CLASS}]+`, "g");

/** Python `s.strip()` with no argument. */
export function pyStrip(s: string): string {
  return pyRstrip(s).replace(LEADING_WS, "");
}

/** Python `s.rstrip()` with no argument. */
export function pyRstrip(s: string): string {
  // A backwards loop instead of the anchored regex: `[…]+$` retries from every whitespace run and is
  // quadratic on long texts that contain many runs.
  let end = s.length;
  while (end > 0 && WS_CHAR.test(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Python `" ".join(s.split())`: collapse whitespace runs to one space and strip the ends. */
export function pyCollapseWhitespace(s: string): string {
  return pyStrip(s.replace(WS_RUN, " "));
}

/**
 * An approximation of Python `str.casefold()` good enough for equality keys: upper- then lower-casing
 * folds ß→ss, ς→σ, ſ→s and the Greek iota subscripts the same way casefold does. Cherokee letters fold to
 * the other case than Python's, but consistently, so two strings still compare equal exactly when their
 * Python casefolds do for every case we know of.
 */
export function pyCasefoldKey(s: string): string {
  return s.toUpperCase().toLowerCase();
}

/** The first `n` code points of `s`, like Python `s[:n]` (never splits a surrogate pair). */
export function pyPrefix(s: string, n: number): string {
  if (s.length <= n) return s;
  let units = 0;
  let count = 0;
  while (units < s.length && count < n) {
    const cp = s.codePointAt(units)!;
    units += cp > 0xffff ? 2 : 1;
    count++;
  }
  return s.slice(0, units);
}

// Python treats Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (except the ASCII space) as non-printable in repr().
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hexEscape(cp: number): string {
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

/**
 * Python 3 `repr(s)` for a str. Non-ASCII printability follows the Unicode tables of Node's ICU, which
 * can lag or lead Python's `unicodedata` for code points assigned in very recent Unicode versions.
 */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  // for…of walks code points and yields lone surrogates as single units, as Python sees them.
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += hexEscape(cp);
    else if (cp < 0x7f) out += ch;
    else out += NON_PRINTABLE.test(ch) ? hexEscape(cp) : ch;
  }
  return out + quote;
}

/**
 * Python `str(x)` for a float: the shortest round-tripping digits (JS and Python agree on these), in
 * fixed notation when the decimal exponent is in [-4, 16) and scientific notation otherwise.
 */
export function pyFloatStr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  // toExponential() without an argument yields the shortest unique digits, e.g. "1.2345e+17".
  const [mantissa = "0", expPart = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exp = Number(expPart);
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const expSign = exp < 0 ? "-" : "+";
    return `${sign}${digits[0]}${frac}e${expSign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const fracPart = digits.slice(exp + 1);
  return `${sign}${intPart}.${fracPart === "" ? "0" : fracPart}`;
}

/**
 * Python `str()` of a number that was an `int` (isInt) or a `float` on the Python side. JSON loses that
 * distinction, so callers that know the original type pass it in.
 */
export function pyNumStr(x: number, isInt: boolean): string {
  if (isInt && Number.isInteger(x)) return BigInt(x).toString();
  return pyFloatStr(x);
}

/**
 * Python `repr()` of a JSON value as `json.loads` would have produced it (dict, list, str, int/float,
 * bool, None). A JSON number that is integral is taken as an int: JSON.parse cannot tell `2.0` from `2`.
 */
export function pyReprJson(v: unknown): string {
  if (typeof v === "string") return pyRepr(v);
  if (typeof v === "number") return Number.isInteger(v) ? pyNumStr(v, true) : pyFloatStr(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (v === null || v === undefined) return "None";
  if (Array.isArray(v)) return `[${v.map(pyReprJson).join(", ")}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  return `{${entries.map(([k, x]) => `${pyRepr(k)}: ${pyReprJson(x)}`).join(", ")}}`;
}

/** Python `str()` of a JSON value: a string is itself, anything else its repr. */
export function pyStrJson(v: unknown): string {
  return typeof v === "string" ? v : pyReprJson(v);
}
