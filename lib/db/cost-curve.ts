/** Reads the stepCommitted events behind the score-vs-cost view (the live, not superseded, ones). */
import { costOf, priceOf } from "../backends/pricing";
import { priceTableOf } from "../backends/settings";
import { buildCostCurve, usdNoteOf, type CostCurveResponse } from "../contracts/cost-curve";
import { parseStoredEventsOf } from "../contracts/stored-events";
import { getDb, type DbTx } from "./client";
import { getRun, runConfigOf } from "./runs";

/** The cost curve of a run, priced with its backends, models and `model.price_table`. */
export async function getCostCurve(runId: string, { db = getDb() }: { db?: DbTx } = {}): Promise<CostCurveResponse> {
  const run = await getRun(runId, { db });
  const events = await db.runEvent.findMany({
    where: { runId, type: "stepCommitted", superseded: false },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true },
  });
  const roles = {
    optimizer: { backend: run.optimizerBackend, model: run.optimizerModel },
    target: { backend: run.targetBackend, model: run.targetModel },
  };
  const table = priceTableOf(runConfigOf(run).model);
  const points = buildCostCurve(parseStoredEventsOf("stepCommitted", events), (tokens) => costOf(tokens, roles, table));
  const priced = (["target", "optimizer"] as const).map((role) => {
    const price = priceOf(roles[role].backend, roles[role].model, table);
    const kind = price === null ? "unknown" : price.inputPerMTok + price.outputPerMTok === 0 ? "free" : "paid";
    return { role, ...roles[role], price: kind } as const;
  });
  return { points, usdNote: usdNoteOf(points, priced) };
}
