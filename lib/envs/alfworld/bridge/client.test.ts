import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../../engine/ports";
import { buildRunConfig, fakeClient } from "../../test-helpers";
import { Limiter } from "../limiter";
import { rolloutAlfworld } from "../rollout";

const FAKE = path.join(__dirname, "testdata", "fake-bridge.mjs");
const REAL = path.join(__dirname, "alfworld_bridge.py");
const data = mkdtempSync(path.join(tmpdir(), "alfworld-data-"));
mkdirSync(path.join(data, "json_2.1.1", "train", "trial_1"), { recursive: true });
writeFileSync(path.join(data, "json_2.1.1", "train", "trial_1", "game.tw-pddl"), "(fake game)");
const SEEN = path.join(data, "json_2.1.1", "valid_seen", "pick_heat_then_place_in_recep-Egg-None-Fridge-1", "trial_9");
mkdirSync(SEEN, { recursive: true });
writeFileSync(path.join(SEEN, "game.tw-pddl"), "(fake game)");
writeFileSync(
  path.join(SEEN, "traj_data.json"),
  JSON.stringify({
    task_type: "pick_heat_then_place_in_recep",
    turk_annotations: {
      anns: [
        {
          task_desc: "Put a heated egg in the fridge.",
          high_descs: ["Walk to the counter.", "Pick up the egg.", "Heat it.", "Put it in the fridge."],
        },
        { task_desc: "Put a heated egg in the fridge." },
        { task_desc: "Warm an egg, then chill it in the fridge." },
      ],
    },
    pddl_params: { object_target: "Egg", parent_target: "Fridge", toggle_target: "", object_sliced: false },
    plan: {
      high_pddl: [
        { discrete_action: { action: "GotoLocation", args: ["countertop"] } },
        { discrete_action: { action: "PickupObject", args: ["egg"] } },
      ],
    },
    scene: { floor_plan: "FloorPlan1", scene_num: 1, dirty_and_empty: false },
  }),
);
const ITEM = { id: "train:0000", gamefile: "json_2.1.1/train/trial_1/game.tw-pddl", task_type: "other" };

function run(vars: Record<string, string>, timeoutMs = 5000) {
  return {
    config: buildRunConfig({ name: "alfworld", exec_timeout: 0 }),
    maxSteps: 4,
    limiter: new Limiter(2),
    games: {
      simulator: "alfworld" as const,
      rootDir: process.cwd(),
      vars: { PATH: process.env.PATH ?? "", ALFWORLD_DATA: data, ...vars },
      bridgeTimeoutMs: timeoutMs,
    },
  };
}
const viaFake = (mode = "ok") => ({
  ALFWORLD_PYTHON: process.execPath,
  ALFWORLD_BRIDGE_SCRIPT: FAKE,
  ALFWORLD_FAKE_MODE: mode,
});
const userOf = (req: CompletionRequest) => req.messages[0]!.content as string;
const play = (
  r: ReturnType<typeof run>,
  client = fakeClient(
    (_, i) => `<think>go</think><action>${i === 0 ? "go to shelf 1" : "take key 1 from shelf 1"}</action>`,
  ),
) => rolloutAlfworld(r, { item: ITEM, skill: "", client, phase: "test", seed: 1, useEvalFeedback: false });

describe("ALFWorld bridge (JSON lines over a subprocess)", () => {
  it("plays a game through the protocol: reset, steps, won; 'help' is not offered", async () => {
    const client = fakeClient(
      (_, i) => `<think>go</think><action>${i === 0 ? "go to shelf 1" : "take key 1 from shelf 1"}</action>`,
    );
    const t = await play(run(viaFake()), client);
    expect(t).toMatchObject({ hard: 1, soft: 1, status: "ok", nTurns: 2, taskDescription: "find the key." });
    expect(userOf(client.calls[0]!)).toContain("'go to shelf 1'");
    expect(userOf(client.calls[0]!)).not.toContain("'help'");
    expect(t.extras).toMatchObject({ simulator: "alfworld" });
  });

  it("shows the analyst the game's traj_data.json and names its split", async () => {
    const item = { id: "val:0000", gamefile: path.relative(data, SEEN), task_type: "pick_heat_then_place_in_recep" };
    const t = await rolloutAlfworld(run(viaFake()), {
      item,
      skill: "",
      client: fakeClient(() => "<think>x</think><action>go to shelf 1</action>"),
      phase: "test",
      seed: 1,
      useEvalFeedback: false,
    });
    expect(t.extras).toMatchObject({ gamefile: item.gamefile, eval_dataset: "eval_in_distribution" });
    expect(t.referenceText).toBe(
      [
        "## Reference (traj_data.json)",
        "Task type: pick_heat_then_place_in_recep",
        "Human task descriptions:",
        "- Put a heated egg in the fridge.",
        "- Warm an egg, then chill it in the fridge.",
        "Human high-level steps:",
        "1. Walk to the counter.",
        "2. Pick up the egg.",
        "3. Heat it.",
        "4. Put it in the fridge.",
        "PDDL parameters: object_target=Egg, parent_target=Fridge",
        "Planner high-level plan:",
        "1. GotoLocation(countertop)",
        "2. PickupObject(egg)",
        "Scene: floor_plan=FloorPlan1, scene_num=1, dirty_and_empty=false",
      ].join("\n"),
    );
  });

  it("a lost game on the bridge gets trace-based reasons (no world-state clauses)", async () => {
    const t = await play(
      run(viaFake()),
      fakeClient(() => "<think>x</think><action>dance</action>"),
    );
    expect(t.status).toBe("ok");
    expect(t.failReason).toBe("Timeout after 4 steps: last inadmissible action: 'dance'");
  });

  it("reports a missing alfworld package, a crash, silence and garbage as clear errors", async () => {
    const missing = await play(run(viaFake("missing")));
    expect(missing).toMatchObject({
      status: "error",
      failReason: expect.stringContaining("the alfworld package is not installed"),
    });
    const crash = await play(run(viaFake("crash")));
    expect(crash.failReason).toMatch(/exited before answering 'step': Segmentation fault in the planner \(at step 1\)/);
    const silent = await play(run(viaFake("silent"), 300));
    expect(silent.failReason).toBe("error: ALFWorld bridge gave no answer to 'reset' within 0.3s");
    const garbage = await play(run(viaFake("garbage")));
    expect(garbage.failReason).toContain("wrote a line that is not JSON: Traceback");
  });

  it("names a missing interpreter and a missing game file", async () => {
    const noPython = await play(run({ ALFWORLD_PYTHON: "/nonexistent/python3" }));
    expect(noPython.failReason).toMatch(/Python interpreter '\/nonexistent\/python3' not found/);
    const r = run(viaFake());
    const t = await rolloutAlfworld(r, {
      item: { ...ITEM, gamefile: "json_2.1.1/nope/game.tw-pddl" },
      skill: "",
      client: fakeClient(() => ""),
      phase: "test",
      seed: 1,
      useEvalFeedback: false,
    });
    expect(t.failReason).toBe(`error: game file not found: ${path.join(data, "json_2.1.1/nope/game.tw-pddl")}`);
  });

  const hasPython = (() => {
    try {
      execFileSync("python3", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  it.runIf(hasPython)("the real bridge script answers with a clear error when alfworld is not importable", async () => {
    const t = await play(run({ ALFWORLD_BRIDGE_SCRIPT: REAL, PYTHONPATH: "" }));
    expect(t.status).toBe("error");
    expect(t.failReason).toMatch(/alfworld package is not installed|cannot load the game/);
  });
});
