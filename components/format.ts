/**
 * Display formatting shared by every page. Unknown values render as an em dash, never as 0:
 * a missing score or an unknown cost must not look like a measured zero.
 */

export const DASH = "—";

/** A score in [0, 1] with three decimals ("0.734"); null/NaN → "—". */
export function formatScore(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return DASH;
  return v.toFixed(3);
}

/** A signed score difference ("+0.050", "−0.013", "±0.000"). */
export function formatDelta(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return DASH;
  const abs = Math.abs(v).toFixed(3);
  if (abs === "0.000") return "±0.000";
  return v > 0 ? `+${abs}` : `−${abs}`;
}

/** Token and call counts: 950, 12.3k, 4.56M. */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return DASH;
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 1_000_000) return `${trim(n / 1000, abs < 10_000 ? 2 : 1)}k`;
  if (abs < 1_000_000_000) return `${trim(n / 1_000_000, abs < 10_000_000 ? 2 : 1)}M`;
  return `${trim(n / 1_000_000_000, 2)}B`;
}

function trim(v: number, digits: number): string {
  return v.toFixed(digits).replace(/\.?0+$/, "");
}

/** US dollars; null = unknown price → "—" (callers may say "unknown"). */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return DASH;
  if (usd === 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd).toLocaleString("en-US")}`;
}

/** A duration in seconds: "42s", "3m 05s", "2h 14m", "3d 4h". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return DASH;
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** Seconds between two ISO timestamps (end defaults to `now`); null when the start is unknown. */
export function elapsedSeconds(startIso: string | null, endIso: string | null, now: number): number | null {
  if (!startIso) return null;
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, (end - start) / 1000);
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function formatRelative(iso: string | null | undefined, now: number): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return DASH;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 30 * 86_400) return `${Math.round(s / 86_400)} d ago`;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * `Date#toLocaleString("en-GB", { hour12: false })`'s own format, built once: toLocaleString with a locale
 * builds a new formatter on every call (about 0.2 ms), and the runs table shows one timestamp per row.
 */
let timestampFormat: Intl.DateTimeFormat | undefined;

/** Absolute local time for tooltips. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return DASH;
  const n = "numeric";
  timestampFormat ??= new Intl.DateTimeFormat("en-GB", {
    hour12: false,
    year: n,
    month: n,
    day: n,
    hour: n,
    minute: n,
    second: n,
  });
  return timestampFormat.format(d);
}

/** "openai · gpt-5.5" — the backend and model of one role. */
export function formatRole(backend: string, model: string): string {
  if (!model) return backend || DASH;
  return backend ? `${backend} · ${model}` : model;
}

/** The first 8 characters of a content hash. */
export function shortHash(hash: string | null | undefined): string {
  return hash ? hash.slice(0, 8) : DASH;
}

/** Percent complete of steps, clamped to [0, 100]; null when the total is unknown. */
export function progressPercent(done: number, total: number): number | null {
  if (!Number.isFinite(total) || total <= 0) return null;
  return Math.min(100, Math.max(0, (done / total) * 100));
}
