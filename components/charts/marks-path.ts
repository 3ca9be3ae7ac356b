/**
 * Many chart marks as one SVG path: a circle per point, each a subpath (`M x-r y a r r 0 1 0 2r 0 …`). A
 * 1,000-step run draws its candidates as three paths (accepted, rejected, skipped) instead of a thousand
 * elements, which is what made the run page slow to show; every mark stays drawn, overlapping or not.
 */

const round = (v: number) => Math.round(v * 10) / 10;

/** The path of circles of radius `r` centred on `centres` (nothing for an empty list). */
export function circlesPath(centres: ReadonlyArray<{ x: number; y: number }>, r: number): string {
  const d = round(2 * r);
  const parts: string[] = [];
  for (const { x, y } of centres) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    parts.push(`M${round(x - r)} ${round(y)}a${r} ${r} 0 1 0 ${d} 0a${r} ${r} 0 1 0 ${-d} 0`);
  }
  return parts.join("");
}

/** The centres of the circles in a path drawn by `circlesPath` (for tests and pointer targets). */
export function circleCentres(path: string): Array<{ x: number; y: number }> {
  const out: Array<{ x: number; y: number }> = [];
  const re = /M(-?[\d.]+) (-?[\d.]+)a([\d.]+) /g;
  for (let m = re.exec(path); m; m = re.exec(path))
    out.push({ x: round(Number(m[1]) + Number(m[3])), y: Number(m[2]) });
  return out;
}
