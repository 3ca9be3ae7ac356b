import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBenchmarkSplits } from "../envs";
import { buildRunConfig } from "../envs/test-helpers";
import { readSplitFile } from "../envs/common/read-items";
import { pullBenchmark, type PullOptions } from "./pull";
import { startFixtureServer, type FixtureServer } from "./testing";

const FIXTURES = path.join(import.meta.dirname, "../../tests/fixtures/data-pull");
const MIRROR = path.join(FIXTURES, "mirror");
const tmp = mkdtempSync(path.join(tmpdir(), "skillopt-data-pull-"));
let server: FixtureServer;
const noSleep = () => Promise.resolve();

beforeAll(async () => {
  server = await startFixtureServer({ root: MIRROR, gated: { prefix: "/datasets/databricks/", token: "hf_test" } });
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function pull(benchmark: string, out: string, extra: Partial<PullOptions> = {}) {
  return pullBenchmark({ benchmark, rootDir: tmp, out, mirror: server.url, sleep: noSleep, ...extra });
}

const readJson = (p: string) => JSON.parse(readFileSync(p, "utf8"));

describe("data pull against a local HTTP server", () => {
  it("LiveMath: matches source_file + no, writes loader-ready items in manifest order", async () => {
    const res = await pull("livemath", "data/livemathematicianbench_split");
    expect(res.counts).toEqual({ train: 2, val: 1, test: 2 });
    const out = path.join(tmp, "data/livemathematicianbench_split");
    const train = readJson(path.join(out, "train/items.json"));
    expect(train.map((i: { id: string }) => i.id)).toEqual(["202511:2", "202512:1"]);
    expect(train[0]).toMatchObject({
      month: "202511", no: 2, question: "A group of order 7 is necessarily", theorem_type: ["algebra"],
      choices: [{ label: "A", text: "cyclic" }, { label: "B", text: "non-abelian" }, { label: "C", text: "trivial" }],
      correct_choice: { label: "A", text: "cyclic" }, source_file: "data/202511/qa_202511_final.json",
    });
    expect(train[1].correct_choice).toEqual({ label: "B", text: "closed" });
    expect(readJson(path.join(out, "split_manifest.json"))).toMatchObject({ source_manifest_dir: "livemathematicianbench_id_split", counts: { train: 2, val: 1, test: 2 } });
    // The project's loader reads the result as a split_dir.
    const splits = loadBenchmarkSplits(buildRunConfig({ name: "livemath", split_mode: "split_dir", split_dir: "data/livemathematicianbench_split" }), tmp);
    expect(splits.test.map((i) => i.id)).toEqual(["202512:3", "202511:3"]);
    expect(splits.test[1]).toMatchObject({ correct_choice: { label: "B", text: "for all x" } });
    expect(readdirSync(path.join(tmp, "data")).filter((n) => n.includes("partial"))).toEqual([]);
  });

  it("OfficeQA: sends HF_TOKEN, writes one CSV per split with the source's columns", async () => {
    const res = await pull("officeqa", "officeqa_split", { hfToken: "hf_test" });
    expect(res.counts).toEqual({ train: 2, val: 1, test: 1 });
    expect(server.auth.get("/datasets/databricks/officeqa/resolve/main/officeqa_full.csv")).toBe("Bearer hf_test");
    const out = path.join(tmp, "officeqa_split");
    const train = readSplitFile(path.join(out, "train/train.csv")) as Record<string, string>[];
    expect(train.map((r) => r.uid)).toEqual(["UID0002", "UID0001"]);
    expect(Object.keys(train[0]!)).toEqual(["uid", "question", "answer", "source_docs", "source_files", "difficulty"]);
    expect(train[0]!.question).toBe('Net change in the public debt, June 1950 ("gross")?');
    const test = readSplitFile(path.join(out, "test/test.csv")) as Record<string, string>[];
    expect(test[0]).toMatchObject({ uid: "UID0003", question: "Which bulletin reported\n the largest deficit?", source_files: '["treasury_bulletin_1943_03.txt"]' });
    expect(res.notes.join(" ")).toMatch(/officeqa_docs_official/);
  });

  it("OfficeQA without a token: a clear message naming HF_TOKEN", async () => {
    await expect(pull("officeqa", "officeqa_nokey")).rejects.toThrow(/access denied \(HTTP 401\).*HF_TOKEN/);
    await expect(pull("officeqa", "officeqa_badkey", { hfToken: "wrong" })).rejects.toThrow(/HTTP 403.*HF_TOKEN was sent but refused/);
    expect(existsSync(path.join(tmp, "officeqa_nokey"))).toBe(false);
  });

  it("ALFWorld: copies the path manifest and says where the game files come from", async () => {
    const res = await pull("alfworld", "alf");
    expect(readJson(path.join(tmp, "alf/test/items.json"))).toEqual([
      { id: "valid_unseen:0000", gamefile: "json_2.1.1/valid_unseen/pick_heat_then_place_in_recep-Egg-None-Fridge-10/trial_3/game.tw-pddl", task_type: "heat" },
    ]);
    expect(res.notes[0]).toMatch(/alfworld-download.*ALFWORLD_DATA/);
  });

  it("refuses to overwrite without --force, replaces with it", async () => {
    await expect(pull("alfworld", "alf")).rejects.toThrow(/alf already exists; pass --force/);
    writeFileSync(path.join(tmp, "alf/stale.txt"), "old");
    await pull("alfworld", "alf", { force: true });
    expect(existsSync(path.join(tmp, "alf/stale.txt"))).toBe(false);
    expect(existsSync(path.join(tmp, "alf/train/items.json"))).toBe(true);
  });

  it("retries 5xx responses and succeeds", async () => {
    const flaky = await startFixtureServer({ root: MIRROR, files: { "/microsoft/SkillOpt/main/data/alfworld_path_split/val/items.json": { status: 503, times: 2 } } });
    try {
      const waits: number[] = [];
      await pullBenchmark({ benchmark: "alfworld", rootDir: tmp, out: "alf-retry", mirror: flaky.url, sleep: async (ms) => void waits.push(ms) });
      expect(waits).toEqual([500, 1000]);
      expect(flaky.requests.filter((p) => p.endsWith("val/items.json"))).toHaveLength(3);
    } finally {
      await flaky.close();
    }
  });
});

describe("data pull failures leave nothing behind", () => {
  const M = "/microsoft/SkillOpt/main/data/livemathematicianbench_id_split";
  const cases: Array<[string, Record<string, string | { status: number }>, RegExp]> = [
    ["a missing id (first five listed)", { [`${M}/test/items.json`]: JSON.stringify([7, 8, 9, 10, 11, 12].map((n) => ({ id: `202512:${n}`, no: n, source_file: "data/202512/qa_202512_final.json" }))) }, /6 of 9 manifest ids not found in LiveMathematicianBench\/LiveMathematicianBench.*'202512:7', '202512:8', '202512:9', '202512:10', '202512:11', …$/],
    ["an id duplicated across splits", { [`${M}/val/items.json`]: JSON.stringify([{ id: "202511:2", no: 2, source_file: "data/202511/qa_202511_final.json" }]) }, /manifest id '202511:2' is duplicated \(in both train and val\)/],
    ["a duplicated source key", { "/datasets/LiveMathematicianBench/LiveMathematicianBench/resolve/b72450f6ce96c26158d64d945a5d31ef7727be41/data/202512/qa_202512_final.json": JSON.stringify([{ no: 1, question: "q", choices: ["a"], correct_choice: "A" }, { no: 3, question: "q", choices: ["a"], correct_choice: "A" }, { no: 3, question: "again", choices: ["a"], correct_choice: "A" }]) }, /duplicate source key '202512:3' in .* \(data\/202512\/qa_202512_final\.json row 2 and .* row 3\)/],
    ["a required field missing", { "/datasets/LiveMathematicianBench/LiveMathematicianBench/resolve/b72450f6ce96c26158d64d945a5d31ef7727be41/data/202512/qa_202512_final.json": JSON.stringify([{ no: 1, question: "q", choices: ["a"], correct_choice: "A" }, { no: 3, choices: ["a"], correct_choice: "A" }]) }, /id '202512:3': missing field 'question'/],
    ["a 404", { [`${M}/split_manifest.json`]: { status: 404 } }, /^not found \(HTTP 404\): http:\/\/127\.0\.0\.1:\d+\/microsoft\/SkillOpt\/main\/data\/livemathematicianbench_id_split\/split_manifest\.json$/],
    ["a server that keeps failing", { [`${M}/train/items.json`]: { status: 502 } }, /HTTP 502 for .*train\/items\.json \(gave up after 4 attempts\)/],
  ];
  it.each(cases)("%s", async (_name, files, message) => {
    const bad = await startFixtureServer({ root: MIRROR, files });
    const parent = path.join(tmp, `fail-${_name.replace(/\W+/g, "-")}`);
    mkdirSync(parent, { recursive: true });
    try {
      await expect(pullBenchmark({ benchmark: "livemath", rootDir: parent, out: "split", mirror: bad.url, sleep: noSleep })).rejects.toThrow(message);
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      await bad.close();
    }
  });

  it("a connection error names the URL", async () => {
    const closed = await startFixtureServer({});
    await closed.close();
    await expect(pullBenchmark({ benchmark: "alfworld", rootDir: tmp, out: "never", mirror: closed.url, sleep: noSleep })).rejects.toThrow(/cannot connect .* for http:\/\/127\.0\.0\.1:\d+\/microsoft\/.*split_manifest\.json \(gave up after 4 attempts\)/);
    expect(existsSync(path.join(tmp, "never"))).toBe(false);
  });

  it("an aborted pull (Ctrl-C) stops at once and writes nothing", async () => {
    const abort = new AbortController();
    const parent = path.join(tmp, "aborted");
    mkdirSync(parent);
    const fetch = async (url: string, init?: { signal?: AbortSignal }) => {
      if (url.includes("qa_202512")) {
        abort.abort();
        init?.signal?.throwIfAborted();
      }
      return globalThis.fetch(url, init);
    };
    await expect(pullBenchmark({ benchmark: "livemath", rootDir: parent, out: "lm", mirror: server.url, sleep: noSleep, fetch, signal: abort.signal })).rejects.toThrow(/^interrupted$/);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("an unknown benchmark lists the known ones", async () => {
    await expect(pull("mmlu", "x")).rejects.toThrow("unknown benchmark 'mmlu'; known: searchqa, livemath, officeqa, docvqa, spreadsheetbench, alfworld");
  });
});
