/** The transfer matrix as a plain-text table for the terminal. */
import type { TransferCellView, TransferMatrixRow } from "../../lib/contracts/transfer";

const score = (c: TransferCellView | null) =>
  c === null ? "-" : c.status !== "succeeded" || c.hard === null ? c.status : c.hard.toFixed(3);
const delta = (d: number | null) => (d === null ? "-" : `${d >= 0 ? "+" : ""}${d.toFixed(3)}`);
const cost = (c: number | null) => (c === null ? "unknown" : `$${c.toFixed(4)}`);

export function formatTransferTable(rows: readonly TransferMatrixRow[]): string {
  const head = ["target", "seed", "best", "delta", "calls", "cost"];
  const body = rows.map((r) => [
    `${r.backend}:${r.model}`,
    score(r.seed),
    score(r.best),
    delta(r.delta),
    String(r.calls),
    cost(r.costUsd),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return `${[line(head), ...body.map(line)].join("\n")}\n`;
}
