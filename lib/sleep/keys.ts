/**
 * Key spelling at the file boundary: lib/sleep works in camelCase, while every file and `--json` output
 * it writes uses the original's snake_case names (report.json, manifest.json, state.json, tasks files),
 * so the original's tools and ours read each other's files.
 */
const toSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function convert(value: unknown, rename: (k: string) => string, opaque: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, rename, opaque));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const name = rename(k);
    out[name] = opaque.has(name) ? v : convert(v, rename, opaque);
  }
  return out;
}

/** A deep copy with camelCase keys renamed to snake_case; values under `opaque` keys are copied as they are. */
export function snakeKeys<T>(value: T, opaque: readonly string[] = []): unknown {
  return convert(value, toSnake, new Set(opaque));
}

/** A deep copy with snake_case keys renamed to camelCase; values under `opaque` keys are copied as they are. */
export function camelKeys(value: unknown, opaque: readonly string[] = []): unknown {
  return convert(value, toCamel, new Set(opaque));
}
