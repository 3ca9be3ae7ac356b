import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { loadSplits, writeRatioSplit } from "./loader";
import { buildRunConfig } from "./test-helpers";

let root = "";
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "envs-loader-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(rel: string, content: unknown): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

const rows = (ids: Array<string | number>) => ids.map((id) => ({ id, question: `q${id}` }));

function errorOf(fn: () => unknown): Error & { field?: string; code?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a throw");
}

describe("split_dir mode", () => {
  const config = (extra: Record<string, unknown> = {}) =>
    buildRunConfig({ split_mode: "split_dir", split_dir: "splits", ...extra });

  it("reads the first *.json of each split folder in sorted order", () => {
    write("splits/train/b.json", rows(["z"]));
    write("splits/train/a.json", rows([1, 2]));
    write("splits/val/items.json", rows(["v"]));
    write("splits/test/items.jsonl", '{"id":"t1"}\n\n{"id":"t2"}\n');
    const splits = loadSplits({ config: config(), rootDir: root });
    expect(splits.train.map((i) => i.id)).toEqual(["1", "2"]);
    expect(splits.val.map((i) => i.id)).toEqual(["v"]);
    expect(splits.test.map((i) => i.id)).toEqual(["t1", "t2"]);
  });

  it("reads CSV split files when the benchmark prefers them, and names a bad CSV line", () => {
    write("splits/train/items.json", rows(["ignored"]));
    write("splits/train/items.csv", 'id,question\n1,"a, quoted"\n2,b\n');
    write("splits/val/items.csv", "id,question\nv,c\n");
    write("splits/test/items.csv", "id,question\nt,d\n");
    const splits = loadSplits({ config: config(), rootDir: root, splitFileTypes: ["csv", "json"] });
    expect(splits.train).toEqual([
      { id: "1", question: "a, quoted" },
      { id: "2", question: "b" },
    ]);
    write("splits/test/items.csv", "id,question\nt,d,extra\n");
    const err = errorOf(() => loadSplits({ config: config(), rootDir: root, splitFileTypes: ["csv"] }));
    expect(err.message).toMatch(/splits\/test\/items\.csv: not valid CSV \(line 2/);
    rmSync(path.join(root, "splits/val/items.csv"));
    const missing = errorOf(() => loadSplits({ config: config(), rootDir: root, splitFileTypes: ["csv"] }));
    expect(missing.message).toMatch(/no \*\.csv file in the split folder/);
  });

  it("truncates each split with limit", () => {
    write("splits/train/items.json", rows([1, 2, 3]));
    write("splits/val/items.json", rows([4, 5]));
    write("splits/test/items.json", rows([6]));
    const splits = loadSplits({ config: config({ limit: 1 }), rootDir: root });
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([1, 1, 1]);
  });

  it("names a missing split folder", () => {
    write("splits/train/items.json", rows([1]));
    write("splits/test/items.json", rows([2]));
    const err = errorOf(() => loadSplits({ config: config(), rootDir: root }));
    expect(isAppError(err)).toBe(true);
    expect(err.message).toContain(path.join(root, "splits", "val"));
    expect(err.message).toContain("missing split folder 'val/'");
  });

  it("rejects a .json that is not an array, naming the file", () => {
    write("splits/train/items.json", { data: rows([1]) });
    write("splits/val/items.json", rows([2]));
    write("splits/test/items.json", rows([3]));
    const err = errorOf(() => loadSplits({ config: config(), rootDir: root }));
    expect(err.message).toBe(`${path.join(root, "splits/train/items.json")}: expected a JSON array of items`);
    expect(err.field).toBe(path.join(root, "splits/train/items.json"));
  });

  it("names the file and the 0-based item index of a malformed row", () => {
    write("splits/train/items.json", [{ id: "a" }, { question: "no id" }]);
    write("splits/val/items.json", rows([2]));
    write("splits/test/items.json", rows([3]));
    const err = errorOf(() => loadSplits({ config: config(), rootDir: root }));
    expect(err.message).toMatch(/splits\/train\/items\.json: item 1: has no 'id'/);
    expect(err.message).not.toContain("\n");
  });

  it("rejects non-object rows and duplicate ids with their index", () => {
    write("splits/train/items.json", [{ id: "a" }, "text"]);
    write("splits/val/items.json", [{ id: 1 }, { id: "1" }]);
    write("splits/test/items.json", rows([3]));
    expect(errorOf(() => loadSplits({ config: config(), rootDir: root })).message).toMatch(
      /item 1: is not a JSON object/,
    );
    write("splits/train/items.json", rows(["a"]));
    expect(errorOf(() => loadSplits({ config: config(), rootDir: root })).message).toMatch(
      /val\/items\.json: item 1: duplicate id '1' \(first seen at item 0\)/,
    );
  });

  it("reports an empty split by name and a bad JSONL line by number", () => {
    write("splits/train/items.json", rows([1]));
    write("splits/val/items.json", []);
    write("splits/test/items.json", rows([3]));
    expect(errorOf(() => loadSplits({ config: config(), rootDir: root })).message).toMatch(/split 'val' is empty/);
    write("splits2/train/items.json", rows([1]));
    write("splits2/val/items.json", rows([2]));
    write("splits2/test/items.jsonl", '{"id":"a"}\nnot json\n');
    const err = errorOf(() => loadSplits({ config: config({ split_dir: "splits2" }), rootDir: root }));
    expect(err.message).toMatch(/splits2\/test\/items\.jsonl: line 2 is not valid JSON/);
  });

  it("runs the benchmark normaliser before the id check", () => {
    write("splits/train/items.json", [{ key: "k1" }]);
    write("splits/val/items.json", [{ key: "k2" }]);
    write("splits/test/items.json", [{ key: "k3" }]);
    const splits = loadSplits({ config: config(), rootDir: root, normalise: (row) => ({ ...row, id: row.key }) });
    expect(splits.test[0]?.id).toBe("k3");
  });
});

describe("ratio mode", () => {
  const ten = Array.from({ length: 10 }, (_, i) => ({ id: i, question: `q${i}` }));

  it("shuffles exactly like random.Random(42).shuffle and writes the splits and the manifest", () => {
    const data = write("raw/data.json", ten);
    const config = buildRunConfig({ split_mode: "ratio", data_path: "raw", split_ratio: "2:1:7", split_seed: 42 });
    const splits = loadSplits({ config, rootDir: root });
    // python3 -c "import random; l=list(range(10)); random.Random(42).shuffle(l); print(l)"
    const order = [7, 3, 2, 8, 5, 6, 9, 4, 0, 1].map(String);
    expect(splits.train.map((i) => i.id)).toEqual(order.slice(0, 2));
    expect(splits.val.map((i) => i.id)).toEqual(order.slice(2, 3));
    expect(splits.test.map((i) => i.id)).toEqual(order.slice(3));
    // Loading writes nothing; the split files appear only when the caller materialises an accepted run.
    expect(readdirSync(root)).toEqual(["raw"]);
    const out = path.join(root, "_generated_splits", "searchqa_2-1-7_seed42");
    expect(writeRatioSplit({ config, rootDir: root })).toBe(out);
    const manifest = JSON.parse(readFileSync(path.join(out, "split_manifest.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toEqual({
      source_data_path: data,
      split_mode: "ratio",
      split_ratio: "2:1:7",
      split_seed: 42,
      counts: { train: 2, val: 1, test: 7 },
    });
    const written = JSON.parse(readFileSync(path.join(out, "test", "items.json"), "utf8")) as Array<{ id: string }>;
    expect(written.map((i) => i.id)).toEqual(order.slice(3));
    // The written folder is itself a valid split_dir.
    const again = loadSplits({ config: buildRunConfig({ split_mode: "split_dir", split_dir: out }), rootDir: root });
    expect(again).toEqual(splits);
  });

  it("falls back to train.seed, honours split_output_dir and reads JSONL and {data:[…]}", () => {
    write("data.jsonl", ten.map((r) => JSON.stringify(r)).join("\n"));
    const config = buildRunConfig(
      { split_mode: "ratio", data_path: "data.jsonl", split_seed: 0, split_output_dir: "out/here" },
      { train: { seed: 7 } },
    );
    const splits = loadSplits({ config, rootDir: root });
    // python3 -c "import random; l=list(range(10)); random.Random(7).shuffle(l); print(l)"
    expect(splits.train.map((i) => i.id)).toEqual(["8", "3"]);
    expect(existsSync(path.join(root, "out"))).toBe(false);
    writeRatioSplit({ config, rootDir: root });
    const manifest = JSON.parse(readFileSync(path.join(root, "out/here/split_manifest.json"), "utf8")) as {
      split_seed: number;
    };
    expect(manifest.split_seed).toBe(7);
    write("wrapped.json", { data: ten });
    const wrappedConfig = buildRunConfig({ split_mode: "ratio", data_path: "wrapped.json", out_root: "o" });
    expect(loadSplits({ config: wrappedConfig, rootDir: root }).test).toHaveLength(7);
    expect(writeRatioSplit({ config: wrappedConfig, rootDir: root })).toBe(
      path.join(root, "o", "_generated_splits", "searchqa_2-1-7_seed42"),
    );
  });

  it("names the file and line of a bad JSONL row, and errors on tiny data", () => {
    write("bad.jsonl", '{"id":1}\n{"id":2\n');
    const bad = buildRunConfig({ split_mode: "ratio", data_path: "bad.jsonl" });
    expect(errorOf(() => loadSplits({ config: bad, rootDir: root })).message).toMatch(
      /bad\.jsonl: line 2 is not valid JSON/,
    );
    write("two.json", ten.slice(0, 2));
    const tiny = buildRunConfig({ split_mode: "ratio", data_path: "two.json" });
    // 2 items at 2:1:7 → counts [1, 0, 1] (the same float remainders as Python's)
    expect(errorOf(() => loadSplits({ config: tiny, rootDir: root })).message).toMatch(
      /split 'val' is empty \(ratio 2:1:7 of 2 items/,
    );
  });

  it("rejects a folder with several data files or one that is a split folder", () => {
    write("many/a.json", ten);
    write("many/b.jsonl", "");
    expect(
      errorOf(() => loadSplits({ config: buildRunConfig({ split_mode: "ratio", data_path: "many" }), rootDir: root }))
        .message,
    ).toMatch(/exactly one \.json\/\.jsonl\/\.csv file/);
    write("splitlike/train/items.json", ten);
    expect(
      errorOf(() =>
        loadSplits({ config: buildRunConfig({ split_mode: "ratio", data_path: "splitlike" }), rootDir: root }),
      ).message,
    ).toMatch(/use split_mode split_dir/);
    expect(
      errorOf(() => loadSplits({ config: buildRunConfig({ split_mode: "ratio" }), rootDir: root })).message,
    ).toMatch(/data_path is required/);
  });
});

describe("sample mode", () => {
  it("uses the built-in sample, validated and limited", () => {
    const strRows = (ids: string[]) => ids.map((id) => ({ id, question: `q${id}` }));
    const sample = () => ({ train: strRows(["a", "b"]), val: strRows(["c"]), test: strRows(["d"]) });
    const splits = loadSplits({ config: buildRunConfig({ split_mode: "sample", limit: 1 }), rootDir: root, sample });
    expect(splits.train.map((i) => i.id)).toEqual(["a"]);
    expect(
      errorOf(() => loadSplits({ config: buildRunConfig({ split_mode: "sample" }), rootDir: root })).message,
    ).toMatch(/no built-in sample/);
  });
});
