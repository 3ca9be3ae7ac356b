/**
 * Reads for the run page's evidence views (gate statistics, noise floor, blame, proposal explorer): the
 * typed stored events of some types (their lean payloads keep the statistics and the proposal sources), the
 * edits of every stage, the steps and the skill versions. Plain rows; the views are assembled in lib/runs.
 */
import { parseStoredEvent, type StoredRunEvent, type StoredRunEventOf } from "../contracts/stored-events";
import { getDb, type DbTx } from "./client";

type Opts = { db?: DbTx };

/**
 * The run's events of these types, oldest first, each parsed with the stored schema of its type (a row
 * that does not parse is an error naming the event and the field); superseded copies are left out.
 */
export async function listStoredEvents<T extends StoredRunEvent["type"]>(
  runId: string,
  types: readonly T[],
  { db = getDb() }: Opts = {},
): Promise<StoredRunEventOf<T>[]> {
  const rows = await db.runEvent.findMany({
    where: { runId, type: { in: [...types] }, superseded: false },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true },
  });
  // Selected by type, and the schema is chosen by the row's type: each event is of one of `types`.
  return rows.map((r) => parseStoredEvent(r) as StoredRunEventOf<T>);
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
