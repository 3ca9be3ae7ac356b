/** Lenient readers for the CLIs' JSON output: unknown shapes degrade to empty values, never throw. */
export type Json = Record<string, unknown>;

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
export const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** Each line that is a JSON object; other lines (warnings, progress, partial writes) are skipped. */
export function parseJsonLines(stdout: string): Json[] {
  const events: Json[] = [];
  for (const line of stdout.split("\n")) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    try {
      events.push(obj(JSON.parse(t)));
    } catch {
      continue; // a line that only looks like JSON is not an event
    }
  }
  return events;
}
