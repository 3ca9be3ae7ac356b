import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmarkSplits } from "../registry";
import { buildRunConfig } from "../test-helpers";
import { normaliseAlfworldRow, taskTypeFromPath } from "./normalise";

const at = { file: "items.json", index: 3 };

function splitDir(rows: Record<string, unknown[]>): string {
  const root = mkdtempSync(path.join(tmpdir(), "alfworld-split-"));
  for (const [name, items] of Object.entries(rows)) {
    mkdirSync(path.join(root, name));
    writeFileSync(path.join(root, name, "items.json"), JSON.stringify(items));
  }
  return root;
}

const ORIGINAL = (split: string, i: number, type: string) => ({
  id: `${split}:${String(i).padStart(4, "0")}`,
  gamefile: `json_2.1.1/${split}/${type}-Mug-None-Shelf-1/trial_T2019_${i}/game.tw-pddl`,
  task_type: type,
});

describe("ALFWorld items", () => {
  it("loads the original's {id, gamefile, task_type} split folders", () => {
    const root = splitDir({
      train: [ORIGINAL("train", 0, "pick_and_place_simple"), ORIGINAL("train", 1, "pick_two_obj_and_place")],
      val: [ORIGINAL("valid_seen", 0, "look_at_obj_in_light")],
      test: [ORIGINAL("valid_unseen", 0, "pick_cool_then_place_in_recep")],
    });
    const splits = loadBenchmarkSplits(
      buildRunConfig({ name: "alfworld", split_mode: "split_dir", split_dir: root }),
      "/",
    );
    expect(splits.train.map((i) => i.id)).toEqual(["train:0000", "train:0001"]);
    expect(splits.test[0]).toMatchObject({
      task_type: "pick_cool_then_place_in_recep",
      gamefile: expect.stringContaining("valid_unseen"),
    });
  });

  it("loads built-in {id, task_type, seed} items and derives a missing task type from the game path", () => {
    expect(normaliseAlfworldRow({ id: "a", task_type: "pick_heat_then_place_in_recep", seed: "12" }, at)).toEqual({
      id: "a",
      task_type: "pick_heat_then_place_in_recep",
      seed: 12,
    });
    expect(
      normaliseAlfworldRow({ gamefile: "x/pick_clean_then_place_in_recep-Cloth-None-Toilet-4/t/game.tw-pddl" }, at),
    ).toMatchObject({
      id: "x/pick_clean_then_place_in_recep-Cloth-None-Toilet-4/t/game.tw-pddl",
      task_type: "pick_clean_then_place_in_recep",
    });
    expect(taskTypeFromPath("a/pick_and_place_simple-Book-None-Bed-1/t")).toBe("pick_and_place_simple");
    expect(taskTypeFromPath("a/pick_two_obj_and_place-CD-None-Shelf-1/t")).toBe("pick_two_obj_and_place");
    expect(taskTypeFromPath("a/somewhere/else")).toBe("other");
  });

  it.each([
    [
      { id: "a", task_type: "pick_and_place_simple" },
      "needs 'seed' (built-in simulator) or 'gamefile' (real ALFWorld)",
    ],
    [{ id: "a", task_type: "pick_and_place_simple", seed: -1 }, "'seed' must be a non-negative integer"],
    [{ id: "a", task_type: "pick_and_place_simple", seed: 1.5 }, "'seed' must be a non-negative integer"],
    [{ id: "a", task_type: "juggling", seed: 1 }, "unknown task_type 'juggling'"],
    [{ id: "a", seed: 1 }, "missing field 'task_type'"],
    [{ id: "a", gamefile: "", task_type: "other" }, "'gamefile' must be a non-empty string"],
  ])("rejects a malformed row %j naming the file and item", (row, problem) => {
    expect(() => normaliseAlfworldRow(row, at)).toThrow(`items.json: item 3: ${problem}`);
  });

  it("a malformed row in a split folder names the file and the item index", () => {
    const root = splitDir({ train: [ORIGINAL("train", 0, "pick_and_place_simple"), { id: "bad" }], val: [], test: [] });
    const config = buildRunConfig({ name: "alfworld", split_mode: "split_dir", split_dir: root });
    expect(() => loadBenchmarkSplits(config, "/")).toThrow(
      `${path.join(root, "train", "items.json")}: item 1: needs 'seed'`,
    );
  });
});
