/**
 * Redaction of secrets for everything that is logged, stored or exported: by key name for structured
 * values (`redactSecrets`), by pattern for free text (`redactText`). The key rule covers
 * every key ending in api_key / api-key / token / secret / password (the original masked only three fixed
 * names — a deliberate deviation).
 */
const SECRET_KEY = /(api[_-]?key|token|secret|password)$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Short values become all `*`; longer ones keep their first and last four characters. */
export function maskSecret(value: string): string {
  return value.length <= 8 ? "*".repeat(value.length) : `${value.slice(0, 4)}...${value.slice(-4)}`;
}

/** A deep copy with every secret-named string value masked. */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v)) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretKey(k) && typeof v === "string" ? maskSecret(v) : redactSecrets(v);
  }
  return out as T;
}

/**
 * Secret-looking substrings inside free text (transcripts, model replies, stderr), each replaced by a
 * `[REDACTED_…]` marker that names its kind. Vendor prefixes first, then structured values (PEM blocks,
 * URL credentials, bearer tokens), then `name = value` / `"name": "value"` assignments whose name ends in
 * a credential word. Applying it twice changes nothing: no pattern matches a marker.
 */
const SECRET_NAME =
  "(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|token|" +
  "client[_-]?secret|secret[_-]?key|secret|password|passwd|pwd|private[_-]?key|authorization|accountkey)";
/** A value: escaped-quoted (JSON inside a JSON string), quoted (maybe cut off at the line end), or bare. */
const SECRET_VALUE = String.raw`\\"(?:(?!\\")[^\r\n])*(?:\\")?|"(?:[^"\\\r\n]|\\.)*"?|'(?:[^'\\\r\n]|\\.)*'?|[^\s"',;&)}\]\\][^\s"',;&)}\]]*`;
const ASSIGNMENT = new RegExp(
  String.raw`(?<![A-Za-z0-9_])((?:\\?["'])?)(${SECRET_NAME})\1(\s*[:=]\s*)((?:Bearer|Basic|Token)\s+|(?!(?:Bearer|Basic|Token)\s))` +
    String.raw`(?!(?:\\?["'])?\[REDACTED)(${SECRET_VALUE})`,
  "gi",
);

const SECRET_TEXT_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g, "[REDACTED_PRIVATE_KEY]"],
  [/(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{10,}/g, "[REDACTED_OPENAI_KEY]"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, "[REDACTED_AWS_KEY]"],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, "[REDACTED_GITHUB_TOKEN]"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, "[REDACTED_SLACK_TOKEN]"],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, "[REDACTED_GOOGLE_KEY]"],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, "[REDACTED_JWT]"],
  // A bare "Bearer <token>" outside an assignment; the token must look machine-made (has a digit).
  [/\b(Bearer\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/g, "$1[REDACTED]"],
];

function redactAssignment(...m: string[]): string {
  const [match, quote, name, sep, scheme = "", value = ""] = m as [string, string, string, string, string?, string?];
  // Upper-case PWD is the shell's working directory, not a password.
  if (name === "PWD") return match;
  const open = /^(\\?["'])/.exec(value)?.[1] ?? "";
  return `${quote}${name}${quote}${sep}${scheme}${open}[REDACTED]${open}`;
}

/** scheme://user:password@host — the user name and host stay, they help a reader place the URL. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)(?!\[REDACTED)[^\s@/]+@/gi;
/** Every assignment name contains one of these; text without any skips the costly assignment scan. */
const SECRET_NAME_HINT = /key|token|secret|passw|pwd|authorization/i;

/** `text` with every secret-looking substring replaced by a `[REDACTED…]` marker. */
export function redactText(text: string): string {
  let out = text;
  for (const [re, replacement] of SECRET_TEXT_PATTERNS) out = out.replace(re, replacement);
  if (out.includes("://")) out = out.replace(URL_PASSWORD, "$1[REDACTED_DB_PASS]@");
  return SECRET_NAME_HINT.test(out) ? out.replace(ASSIGNMENT, redactAssignment) : out;
}

/** A deep copy in which every string is `redactText`-ed and every secret-named string field is `[REDACTED]`. */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretKey(k) && typeof v === "string" && v !== "" ? "[REDACTED]" : redactDeep(v);
  }
  return out as T;
}
