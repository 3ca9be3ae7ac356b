/**
 * The transfer request's budget check against the stored run: its test split size (as the run recorded it
 * when it started) and its benchmark's calls per item, checked before any cell is queued.
 */
import type { Db } from "../db/client";
import { listStoredEvents } from "../db/evidence-rows";
import { getRun, runConfigOf } from "../db/runs";
import { getBenchmark } from "../envs";
import { AppError } from "../errors";
import { checkTransferBudget, estimateTransferCalls } from "./transfer-estimate";

/** The `beforeQueue` check of createTransferCells for a request's `maxCalls`; undefined without a cap. */
export async function transferBudgetCheck(
  runId: string,
  maxCalls: number | undefined,
  { db }: { db?: Db } = {},
): Promise<((cells: number) => void) | undefined> {
  if (maxCalls === undefined) return undefined;
  const config = runConfigOf(await getRun(runId, { db }));
  const testItems = (await listStoredEvents(runId, ["runStarted"], { db })).at(-1)?.testSize ?? null;
  if (testItems === null)
    throw new AppError("INVALID_REQUEST", `maxCalls: run ${runId} recorded no test split size to estimate from`, {
      field: "maxCalls",
      userMessage: "maxCalls: this run recorded no test split size, so its transfer calls cannot be estimated.",
    });
  const perItem = getBenchmark(config.env.name).targetCallsPerRollout?.(config) ?? 1;
  return (cells) => checkTransferBudget(estimateTransferCalls(cells, testItems, perItem), maxCalls);
}
