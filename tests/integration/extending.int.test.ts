/**
 * The README's "Extending" walkthroughs, followed literally: a benchmark folder and a backend folder
 * (tests/fixtures/extending, laid out like the project: lib/envs/tally, lib/backends/echo, configs/tally)
 * are registered at run time, a tiny run trains with them through the engine, and the catalogs the New
 * run form reads (presets, backends) list them. No database or queue is needed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listBackends } from "@/lib/backends/catalog";
import { normaliseBackend, registerBackend, resolveRoles } from "@/lib/backends/names";
import { loadRunConfig } from "@/lib/config";
import { MemoryCheckpointStore, runTraining } from "@/lib/engine";
import { findBenchmark } from "@/lib/envs/catalog";
import { getBenchmark, registerBenchmark } from "@/lib/envs/registry";
import { prepareRun } from "@/lib/runs/prepare";
import type { BackendExtension } from "@/lib/backends/extensions";
import { POST as estimatePost } from "@/app/api/runs/estimate/route";
import { validateRunRequest } from "@/lib/services/new-run";
import { listPresets } from "@/lib/runs/presets";
import { echoBackend, echoCalls } from "../fixtures/extending/lib/backends/echo";
import { tallyBenchmark } from "../fixtures/extending/lib/envs/tally";

const ROOT = join(__dirname, "../fixtures/extending");
const PRESET = join(ROOT, "configs/tally/sample.yaml");

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** Trains a config of the fixture project fully in memory, as the worker and the CLI drive the engine. */
async function train(overrides: string[] = []) {
  const { config } = loadRunConfig(PRESET, overrides);
  const run = prepareRun({ config, rootDir: ROOT, trust: "local" });
  const store = new MemoryCheckpointStore();
  let t = 0;
  const summary = (await runTraining({
    config,
    splits: run.splits,
    initialSkill: run.initialSkill,
    env: run.env,
    optimizer: run.optimizer,
    target: run.target,
    store,
    events: { emit: () => {} },
    clock: { now: () => (t += 1) },
  })) as Record<string, unknown>;
  return { run, summary };
}

describe("README walkthrough: adding a benchmark", () => {
  it("a registered benchmark trains on the simulated model and the form lists its preset", async () => {
    cleanups.push(registerBenchmark(tallyBenchmark));
    expect(findBenchmark("Tally-Counts")?.name).toBe("tally");
    expect(getBenchmark("tally").initialSkillPath).toBe("lib/envs/tally/initial.md");

    const preset = listPresets(ROOT).find((p) => p.path === "tally/sample.yaml")!;
    expect(preset.error).toBeUndefined();
    expect(preset).toMatchObject({ env: "tally", title: "Tally: count the objects in a short word problem" });
    expect(preset.initialSkill).toContain("# Counting Skill");
    expect(preset.simulated).toBe(true);

    const { run, summary } = await train();
    expect(run.splits.train).toHaveLength(8);
    expect(summary.total_steps).toBeGreaterThan(0);
    expect(summary.stop_reason).toBe("completed");
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
  });

  it("names are checked, and an unregistered benchmark is unknown again", () => {
    const unregister = registerBenchmark(tallyBenchmark);
    expect(() => registerBenchmark({ ...tallyBenchmark, aliases: [] })).toThrow(
      "registerBenchmark: 'tally' is already the name of a benchmark",
    );
    expect(() => registerBenchmark({ ...tallyBenchmark, name: "livemathematicianbench", aliases: [] })).toThrow(
      "'livemathematicianbench' is already the name of a benchmark",
    );
    expect(() => registerBenchmark({ ...tallyBenchmark, name: "Tally Two" })).toThrow("must be lower-case");
    unregister();
    expect(() => getBenchmark("tally")).toThrow("unknown benchmark 'tally'");
    expect(() => loadRunConfig(PRESET)).toThrow("env.name: unknown benchmark 'tally'");
  });
});

describe("README walkthrough: adding a model backend", () => {
  it("a registered backend plays the target in a run and the form's catalog lists it", async () => {
    cleanups.push(registerBenchmark(tallyBenchmark), registerBackend(echoBackend));
    expect(normaliseBackend(" ECHO_chat ", "model.backend")).toBe("echo");
    expect(listBackends({}).find((b) => b.name === "echo")).toEqual({
      name: "echo",
      available: true,
      roles: ["target"],
      note: "repeats the question's last number (a wiring example)",
    });
    expect(listBackends({ ECHO_DISABLED: "1" }).find((b) => b.name === "echo")).toMatchObject({
      available: false,
      note: "unset ECHO_DISABLED",
    });

    const before = echoCalls.count;
    const { run, summary } = await train(["model.target_backend=echo", "model.target=echo-1", "train.num_epochs=1"]);
    expect(run.target.backend).toBe("echo");
    const used = run.target.stats!().total.calls;
    expect(used).toBeGreaterThan(0);
    expect(echoCalls.count - before).toBe(used);
    expect(summary.total_steps).toBeGreaterThan(0);
    expect(summary.stop_reason).toBe("completed");
  });

  it("a target-only backend is refused for the optimizer, and taken names are refused", () => {
    cleanups.push(registerBackend(echoBackend));
    const model = { backend: "sim", optimizer_backend: "echo", target_backend: "" } as Parameters<
      typeof resolveRoles
    >[0];
    expect(() => resolveRoles(model)).toThrow("model.optimizer_backend: 'echo' can only be used for the target role");
    expect(() => registerBackend({ ...echoBackend, name: "echo-two", aliases: ["claude"] })).toThrow(
      "registerBackend: 'claude' is already the name of a backend",
    );
    expect(() => registerBackend({ ...echoBackend, name: "Echo" })).toThrow("must be lower-case");
  });
});

describe("the web process checks a run without constructing a model client", () => {
  /** A registered backend whose client construction is counted and refused: building one is a bug here. */
  function probeBackend(): { ext: BackendExtension; built: { count: number } } {
    const built = { count: 0 };
    const ext: BackendExtension = {
      name: "probe-no-build",
      roles: ["target"],
      provider: () => {
        built.count++;
        throw new Error("probe-no-build: a model client was constructed");
      },
    };
    return { ext, built };
  }
  const body = {
    preset: "searchqa/sample.yaml",
    overrides: { "model.target_backend": "probe-no-build", "model.target": "probe-1" },
  };

  it("validation and the estimate route name the backend and count the calls; only the worker's preparation builds the client", async () => {
    const { ext, built } = probeBackend();
    cleanups.push(registerBackend(ext));

    const v = await validateRunRequest(body, process.cwd());
    expect(v.prepared.roles.target).toEqual({ backend: "probe-no-build", model: "probe-1" });
    const res = await estimatePost(
      new Request("http://localhost/api/runs/estimate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect((JSON.parse(text) as { totalCalls: number }).totalCalls).toBeGreaterThan(0);
    expect(built.count).toBe(0);

    // The probe does bite: the worker/CLI path builds the clients and so reaches the provider.
    expect(() => prepareRun({ config: v.prepared.config, rootDir: process.cwd(), trust: "local" })).toThrow(
      "a model client was constructed",
    );
    expect(built.count).toBe(1);
  });
});

describe("SKILLOPT_EXTENSIONS: another process registers the same file", () => {
  const CLI = join(process.cwd(), "scripts/cli.ts");
  /** `skillopt train` on the fixture project's tally preset with echo as the target, in a new process. */
  function cliTrain(extensions: string | undefined) {
    const out = mkdtempSync(join(tmpdir(), "skillopt-ext-"));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        CLI,
        "train",
        "--config",
        "configs/tally/sample.yaml",
        "--no-db",
        "--out",
        out,
        "--cfg-options",
        "model.target_backend=echo",
        "model.target=echo-1",
        "train.num_epochs=1",
      ],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, FORCE_COLOR: "0", SKILLOPT_EXTENSIONS: extensions ?? "" },
      },
    );
    return { ...r, out };
  }

  it("the CLI loads the extension file at start and trains its benchmark with its backend", () => {
    const r = cliTrain("skillopt-extensions.ts");
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(r.out, "summary.json"), "utf8")) as Record<string, unknown>;
    expect(summary.stop_reason).toBe("completed");
    expect(summary.total_steps as number).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/target\s+echo · echo-1: \d+ calls/);
  });

  it("without it the same command is refused by name", () => {
    const none = cliTrain(undefined);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("env.name: unknown benchmark 'tally'");
  });
});
