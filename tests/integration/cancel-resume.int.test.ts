/**
 * A cancelled run can be resumed (issue 13.8): the user cancels mid-run, presses Resume, and the run
 * continues from its last committed step with a real worker process, ending with exactly the best skill
 * of an uninterrupted run and every step once.
 */
import { describe, expect, it } from "vitest";
import * as runRoute from "../../app/api/runs/[runId]/route";
import { findRun } from "../../lib/db/runs";
import { createRunFromRequest } from "../../lib/runs/create";
import { until } from "../helpers/processes";
import { useStack } from "../helpers/stack";

const stack = useStack({ redis: true, defaultDb: true });

const act = (id: string, action: "cancel" | "resume") =>
  runRoute.PATCH(
    new Request(`http://127.0.0.1/api/runs/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ action }),
      headers: { "content-type": "application/json" },
    }),
    { params: Promise.resolve({ runId: id }) },
  );
const waitFor = (id: string, ok: (r: Awaited<ReturnType<typeof findRun>>) => boolean, what: string) =>
  until(() => findRun(id), ok, 180_000, what);
const bestSkill = async (runId: string) =>
  (await stack.db.checkpoint.findUnique({ where: { runId_key: { runId, key: "best_skill.md" } } }))?.value;

describe("cancel, then resume", () => {
  it("a cancelled run resumes from its last step and ends like an uninterrupted run", async () => {
    const w = stack.worker("cr0");
    await w.ready;
    const overrides = { "train.num_epochs": 2, "model.sim_latency_ms": 20 };
    const make = async (name: string) =>
      (await createRunFromRequest({ preset: "searchqa/sample.yaml", overrides, name }, process.cwd())).id;
    const reference = await make("uninterrupted");
    await waitFor(reference, (r) => r?.status === "succeeded", "the reference run");
    const id = await make("cancelled then resumed");
    await waitFor(id, (r) => (r?.stepsDone ?? 0) >= 2, "two steps");
    expect((await act(id, "cancel")).status).toBe(200);
    const cancelled = await waitFor(id, (r) => r?.status === "cancelled", "the cancel");
    expect(cancelled!.stepsDone).toBeLessThan(6);
    const resumed = await act(id, "resume");
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({ status: "queued" });
    const done = await waitFor(id, (r) => r?.status === "succeeded", "the resumed run");
    expect(done).toMatchObject({ stepsDone: 6, stopReason: "completed", cancelRequested: false });
    expect(await bestSkill(id)).toBe(await bestSkill(reference));
    expect(await stack.db.step.count({ where: { runId: id } })).toBe(6);
    const types = (await stack.db.runEvent.findMany({ where: { runId: id }, orderBy: { seq: "asc" } })).map(
      (e) => e.type,
    );
    expect(types.indexOf("runResumeRequested")).toBeGreaterThan(types.indexOf("runCancelled"));
    await w.kill("SIGTERM");
  }, 400_000);

  it("a finished run still cannot be resumed, and the message lists the statuses that can", async () => {
    const id = (
      await createRunFromRequest(
        { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 1 }, name: "done" },
        process.cwd(),
      )
    ).id;
    await stack.db.run.update({ where: { id }, data: { status: "succeeded" } });
    const res = await act(id, "resume");
    expect(res.status).toBe(409);
    expect(JSON.stringify(await res.json())).toMatch(/Only interrupted, failed, cancelled or budget-exhausted runs/);
  });
});
