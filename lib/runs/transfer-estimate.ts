/**
 * The transfer matrix's budget check (pure): before any cell is queued, the most target calls the request
 * can make — cells × test items × the benchmark's calls per item (its turn or step limit) — against the
 * request's optional `maxCalls`. Over the cap, nothing is queued and the message says why.
 */
import { AppError } from "../errors";

export interface TransferCallEstimate {
  cells: number;
  testItems: number;
  /** Target calls one test item may take at most (1 for single-turn benchmarks). */
  callsPerItem: number;
  /** cells × testItems × callsPerItem: an upper bound, since multi-turn items often stop early. */
  calls: number;
}

export function estimateTransferCalls(cells: number, testItems: number, callsPerItem: number): TransferCallEstimate {
  const per = Math.max(1, Math.floor(callsPerItem));
  return { cells, testItems, callsPerItem: per, calls: cells * testItems * per };
}

/** Refuses (INVALID_REQUEST on `maxCalls`) a request whose estimate exceeds its cap; no cap, no check. */
export function checkTransferBudget(est: TransferCallEstimate, maxCalls: number | undefined): void {
  if (maxCalls === undefined || est.calls <= maxCalls) return;
  const per = est.callsPerItem > 1 ? ` × up to ${est.callsPerItem} calls per item` : "";
  const message =
    `maxCalls: this request may make up to ${est.calls} target calls ` +
    `(${est.cells} cell${est.cells === 1 ? "" : "s"} × ${est.testItems} test items${per}), over the cap of ${maxCalls}; ` +
    "nothing was queued. Raise the cap or pick fewer targets.";
  throw new AppError("INVALID_REQUEST", message, { field: "maxCalls", userMessage: message });
}
