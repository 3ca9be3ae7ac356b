/**
 * The file store's crash guarantee end to end: `skillopt train` killed outright (SIGKILL: writes still
 * queued for the writer thread are lost, a file may be torn) resumes to the result of an uninterrupted run.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox } from "../../scripts/cli/testing";

const { root, tmp, cli, cleanup } = cliSandbox("skillopt-kill-");
afterAll(cleanup);

const opts = [
  "--config",
  "configs/searchqa/sample.yaml",
  "--no-db",
  "--cfg-options",
  "train.num_epochs=2",
  "model.sim_latency_ms=1",
];

/** The last step committed to disk (runtime_state.json), 0 while none is or the file is not readable yet. */
function stepOnDisk(out: string): number {
  try {
    const m = /"last_completed_step":\s*(\d+)/.exec(readFileSync(join(out, "runtime_state.json"), "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Starts a run and kills it with SIGKILL once its progress output contains `marker` and a step's commit is
 * on disk (the writer thread lands it moments after the progress line, and the baseline's state file comes
 * first; a kill before a step's commit would only replay more, and "resuming after step N" could not be
 * checked).
 */
async function killAt(out: string, marker: string): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "train", "--out", out, ...opts], {
    cwd: root,
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  let err = "";
  let waiting: ReturnType<typeof setInterval> | undefined;
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      if (!err.includes(marker) || waiting) return;
      waiting = setInterval(() => {
        if (stepOnDisk(out) >= 1) child.kill("SIGKILL");
      }, 2);
    });
    child.on("exit", (_code, sig) => {
      clearInterval(waiting);
      resolve(sig);
    });
  });
  expect(signal, `the run ended before "${marker}":\n${err}`).toBe("SIGKILL");
}

describe("FileCheckpointStore: a killed run resumes to the same result", () => {
  it("killed in the middle of steps, resumed, it ends with the uninterrupted run's skill and history", async () => {
    const ref = join(tmp, "ref");
    expect(cli(["train", "--out", ref, ...opts]).code).toBe(0);
    const strip = (h: Array<Record<string, unknown>>) => h.map(({ wall_time_s, timing, ...rest }) => rest);
    const history = (dir: string) => strip(JSON.parse(readFileSync(join(dir, "history.json"), "utf8")));
    for (const [i, marker] of ["[step 2/6] rollout", "[step 4/6] analysts"].entries()) {
      const out = join(tmp, `killed-${i}`);
      await killAt(out, marker);
      expect(stepOnDisk(out)).toBeGreaterThanOrEqual(1);
      const r = cli(["train", "--resume", out, "--no-db"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/resuming after step [1-3] of 6/);
      expect(readFileSync(join(out, "best_skill.md"), "utf8")).toBe(readFileSync(join(ref, "best_skill.md"), "utf8"));
      expect(history(out)).toEqual(history(ref));
    }
  }, 240_000);
});
