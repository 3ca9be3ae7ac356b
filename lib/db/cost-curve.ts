/** Reads the stepCommitted events behind the score-vs-cost view (the live, not superseded, ones). */
import { buildCostCurve, type CostCurveResponse } from "../contracts/cost-curve";
import { parseStoredEventsOf } from "../contracts/stored-events";
import { getDb, type DbTx } from "./client";
import { getRun } from "./runs";

export async function getCostCurve(runId: string, { db = getDb() }: { db?: DbTx } = {}): Promise<CostCurveResponse> {
  await getRun(runId, { db });
  const events = await db.runEvent.findMany({
    where: { runId, type: "stepCommitted", superseded: false },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true },
  });
  return { points: buildCostCurve(parseStoredEventsOf("stepCommitted", events)) };
}
