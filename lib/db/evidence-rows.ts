/**
 * Reads for the run page's evidence views (gate statistics, noise floor, blame, proposal explorer): the
 * stored events of some types (their lean payloads keep the statistics and the proposal sources), the
 * edits of every stage, the steps and the skill versions. Plain rows; the views are assembled in lib/runs.
 */
import { getDb, type DbTx } from "./client";

type Opts = { db?: DbTx };

/** Parsed payloads of the run's events of these types, oldest first; superseded copies are left out. */
export async function listEventPayloads(
  runId: string,
  types: readonly string[],
  { db = getDb() }: Opts = {},
): Promise<{ seq: number; type: string; payload: Record<string, unknown> }[]> {
  const rows = await db.runEvent.findMany({
    where: { runId, type: { in: [...types] }, superseded: false },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true },
  });
  return rows.map((r) => ({ seq: r.seq, type: r.type, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

export async function listRunEdits(runId: string, { db = getDb() }: Opts = {}) {
  return db.edit.findMany({
    where: { runId },
    orderBy: [{ step: "asc" }, { stage: "asc" }, { ord: "asc" }],
    select: {
      step: true,
      ord: true,
      stage: true,
      origin: true,
      op: true,
      target: true,
      content: true,
      rationale: true,
      support: true,
      applyStatus: true,
      gateStatus: true,
    },
  });
}

export async function listStepActions(runId: string, { db = getDb() }: Opts = {}) {
  return db.step.findMany({
    where: { runId },
    orderBy: { step: "asc" },
    select: { step: true, epoch: true, action: true, recordJson: true },
  });
}

export async function listSkillVersionTexts(runId: string, { db = getDb() }: Opts = {}) {
  return db.skillVersion.findMany({
    where: { runId },
    orderBy: [{ step: "asc" }, { createdAt: "asc" }],
    select: { kind: true, step: true, epoch: true, content: true, contentHash: true, status: true },
  });
}
