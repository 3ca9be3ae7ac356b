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
