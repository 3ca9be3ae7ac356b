import { afterAll, describe, expect, it } from "vitest";
import { runSleepCycle } from "./cycle";
import { PERSONAS } from "./experiment/personas";
import { assignSplits } from "./mine";
import type { NightRecorder } from "./recorder";
import { removeTempDirs, sandbox, testConfig } from "./test-helpers";

afterAll(removeTempDirs);

const persona = () => assignSplits(PERSONAS.researcher(), { valFraction: 0.34, testFraction: 0, seed: 42 });
const harvest = async () => ({ digests: [], notes: [] });

describe("the night recorder port", () => {
  it("is told the start and the end of a night with its split sizes", async () => {
    const s = sandbox();
    const calls: string[] = [];
    const recorder: NightRecorder = {
      started: async (i) => void calls.push(`start ${i.night} ${i.backend} dry=${i.dryRun}`),
      finished: async (f) =>
        void calls.push(
          `end ${f.outcome.report.gateAction} ${f.splits.train}+${f.splits.val}+${f.splits.test}=${f.outcome.report.nTasks}`,
        ),
      failed: async () => void calls.push("failed"),
    };
    const tasks = persona();
    await runSleepCycle(
      { config: testConfig(s), now: () => 1_700_000_000_000, env: {}, harvest, recorder },
      { seedTasks: tasks, dryRun: true },
    );
    const val = tasks.filter((t) => t.split === "val").length;
    expect(calls).toEqual([
      "start 1 mock dry=true",
      `end accept_new_best ${tasks.length - val}+${val}+0=${tasks.length}`,
    ]);
  });

  it("a recorder that throws never fails the night: one warning line instead", async () => {
    const s = sandbox();
    const log: string[] = [];
    const broken: NightRecorder = {
      started: async () => {
        throw new Error("database is locked");
      },
      finished: async () => {
        throw new Error("database is locked");
      },
      failed: async () => {},
    };
    const out = await runSleepCycle(
      {
        config: testConfig(s),
        now: () => 1_700_000_000_000,
        env: {},
        harvest,
        recorder: broken,
        log: (l) => log.push(l),
      },
      { seedTasks: persona() },
    );
    expect(out.report.accepted).toBe(true);
    expect(log.filter((l) => l.includes("not recorded in the database: database is locked"))).toHaveLength(2);
  });

  it("a night that throws is reported as failed", async () => {
    const s = sandbox();
    const seen: string[] = [];
    const recorder: NightRecorder = {
      started: async () => {},
      finished: async () => {},
      failed: async (f) => void seen.push(`${f.pending}:${f.message}`),
    };
    const failing = async () => {
      throw new Error("transcripts unreadable");
    };
    await expect(
      runSleepCycle({ config: testConfig(s), now: () => 1_700_000_000_000, env: {}, harvest: failing, recorder }),
    ).rejects.toThrow("transcripts unreadable");
    expect(seen).toEqual(["false:transcripts unreadable"]);
  });
});
