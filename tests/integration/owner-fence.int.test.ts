/**
 * A worker that lost its run writes nothing more (issue 14): when the run is handed on to another worker
 * while this one still trains it, the next event or checkpoint batch it stores is refused in its own
 * transaction, and the job ends as "lost" without touching the new owner's row — even before the run
 * watch's next poll would have noticed. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { handleOptimizeRun } from "../../worker/handlers/optimize-run";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";
import { createSimRunRow } from "../helpers/sim-run";

const quiet = { info: () => {}, warn: () => {} };

describe.each(PROVIDERS)("the owner's fence on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("a run handed on mid-run gets no write from its old worker after the take-over", async () => {
    const { id } = await createSimRunRow(db, { overrides: ["train.num_epochs=2"] });
    const counts = () =>
      Promise.all([
        db.runEvent.count({ where: { runId: id } }),
        db.checkpoint.count({ where: { runId: id } }),
        db.checkpointRow.count({ where: { runId: id } }),
        db.step.count({ where: { runId: id } }),
      ]);
    let published = 0;
    let takeover: Promise<Awaited<ReturnType<typeof counts>>> | null = null;
    const outcome = await handleOptimizeRun(id, {
      workerId: "w1",
      rootDir: process.cwd(),
      shutdown: new AbortController().signal,
      staleAfterMs: 60_000,
      // After its 8th stored event (the run is under way), another worker takes the run over.
      publish: () => {
        published += 1;
        if (published === 8) takeover = db.run.update({ where: { id }, data: { workerId: "w2" } }).then(() => counts());
      },
      log: quiet,
    } as never);
    expect(takeover).not.toBeNull();
    const atTakeover = await takeover!;
    expect(outcome).toBe("lost");
    expect(await counts()).toEqual(atTakeover);
    const row = await db.run.findUniqueOrThrow({ where: { id } });
    expect({ status: row.status, workerId: row.workerId, finishedAt: row.finishedAt }).toEqual({
      status: "running",
      workerId: "w2",
      finishedAt: null,
    });
  });
});
