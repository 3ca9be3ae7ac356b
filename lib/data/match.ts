/**
 * Matching source rows to manifest ids: every source row is scanned, rows whose key is wanted are kept,
 * a wanted key seen twice is an error, and any id never found is an error listing the first five.
 */
import { AppError } from "../errors";

/** Collects the wanted rows of one or more sources. */
export class RowIndex<Row> {
  private readonly found = new Map<string, { row: Row; where: string }>();
  private scanned = 0;

  private readonly wanted: ReadonlyMap<string, string>;

  /** `wanted` maps each key to the manifest id shown in errors (a set when key and id are the same). */
  constructor(
    wanted: ReadonlySet<string> | ReadonlyMap<string, string>,
    private readonly label: string,
  ) {
    this.wanted = wanted instanceof Map ? wanted : new Map([...wanted].map((k) => [k, k]));
  }

  /** Offers one source row; `where` (file + row number) appears in the duplicate error. */
  offer(key: string | null, row: Row, where: string): void {
    this.scanned++;
    if (key === null || !this.wanted.has(key)) return;
    const prev = this.found.get(key);
    if (prev) throw new AppError("INVALID_REQUEST", `duplicate source key '${this.wanted.get(key)}' in ${this.label} (${prev.where} and ${where})`);
    this.found.set(key, { row, where });
  }

  /** True when `key` is one of the wanted keys. */
  wants(key: string | null): boolean {
    return key !== null && this.wanted.has(key);
  }

  /** Throws unless every wanted key was found. */
  requireAll(): void {
    const missing = [...this.wanted.keys()].filter((k) => !this.found.has(k));
    if (missing.length === 0) return;
    const shown = missing.slice(0, 5).map((k) => `'${this.wanted.get(k)}'`).join(", ");
    throw new AppError(
      "NOT_FOUND",
      `${missing.length} of ${this.wanted.size} manifest ids not found in ${this.label} (${this.scanned} rows scanned): ${shown}${missing.length > 5 ? ", …" : ""}`,
    );
  }

  /** The row for a wanted key (after `requireAll`). */
  get(key: string): Row {
    const hit = this.found.get(key);
    if (!hit) throw new AppError("INTERNAL", `row '${key}' was not collected`);
    return hit.row;
  }

  get size(): number {
    return this.found.size;
  }
}

/** Throws naming the id when a required field is absent (undefined, null or blank string). */
export function requireFields(id: string, row: Record<string, unknown>, fields: readonly string[], label: string): void {
  for (const f of fields) {
    const v = row[f];
    if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) {
      throw new AppError("INVALID_REQUEST", `${label}: id '${id}' lacks required field '${f}'`);
    }
  }
}

/** A string key from a cell (numbers become strings), or null. */
export function keyOf(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  return null;
}
