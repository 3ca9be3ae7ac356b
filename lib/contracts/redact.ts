/**
 * Redaction of secret-bearing values by key name, for everything that is logged, stored or exported.
 * It covers every key ending in api_key / api-key / token / secret / password (the original masked only
 * three fixed names — a deliberate deviation).
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

/*
 * Free-text redaction (SkillOpt-Sleep, spec D.8): transcripts, model replies and CLI errors can carry
 * credentials in prose, so every string Sleep persists (evidence, tasks, reports, diagnostics, handoff
 * prompts) passes through `redactText` first. Vendor key shapes are recognised by their prefixes; other
 * secrets by the name they are assigned to.
 */
const SECRET_NAME =
  "(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|id[_-]?token|token|password|passwd|pwd|secret|client[_-]?secret|secret[_-]?key|private[_-]?key|account[_-]?key)";
const NOT_REDACTED = "(?!\\[REDACTED)";

const TEXT_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, "[REDACTED_PRIVATE_KEY]"],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{10,}/g, "[REDACTED_OPENAI_KEY]"],
  [/\bAKIA[0-9A-Z]{16}\b/g, "[REDACTED_AWS_KEY]"],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, "[REDACTED_GITHUB_TOKEN]"],
  [/\bxox[baprs]-[A-Za-z0-9-]{10,}/g, "[REDACTED_SLACK_TOKEN]"],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, "[REDACTED_GOOGLE_KEY]"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, "[REDACTED_JWT]"],
  // user:password@ in a connection URL: the user and host stay readable.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:)([^\s@/'"]+)(@)/gi, "$1[REDACTED_DB_PASS]$3"],
  [new RegExp(`(Authorization\\s*[:=]\\s*["']?(?:Bearer|Basic|Token)\\s+)${NOT_REDACTED}[^\\s"',;]+`, "gi"), "$1[REDACTED]"],
  [new RegExp(`(\\bBearer\\s+)${NOT_REDACTED}[A-Za-z0-9._~+/=-]{12,}`, "g"), "$1[REDACTED]"],
];

/** name = value, name: value, "name": "value"; the quotes around a value are kept. */
const ASSIGNMENT = new RegExp(
  `((?<![A-Za-z0-9])${SECRET_NAME}(?![A-Za-z0-9])["']?\\s*[:=]\\s*)${NOT_REDACTED}(?:"(?!\\[REDACTED)[^"\\n]*"?|'(?!\\[REDACTED)[^'\\n]*'?|[^\\s"',;&)\\]}]+)`,
  "gi",
);

/** `text` with every secret-looking value replaced by a `[REDACTED…]` marker. */
export function redactText(text: string): string {
  let out = text;
  for (const [re, replacement] of TEXT_PATTERNS) out = out.replace(re, replacement);
  return out.replace(ASSIGNMENT, (whole: string, prefix: string) => {
    const q = whole.charAt(prefix.length);
    return q === '"' || q === "'" ? `${prefix}${q}[REDACTED]${q}` : `${prefix}[REDACTED]`;
  });
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
