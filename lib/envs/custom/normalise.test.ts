import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { fingerprintSplits, splitIdsHash } from "../common/fingerprint";
import { writeRatioSplit } from "../loader";
import { benchmarkSplitOptions, loadBenchmarkSplits } from "../registry";
import { buildRunConfig } from "../test-helpers";
import { contentId, createCustomNormaliser, parseAnswerCell } from "./normalise";
import { customOptions } from "./options";

const dir = mkdtempSync(join(tmpdir(), "custom-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

function config(env: Record<string, unknown>) {
  return buildRunConfig({
    name: "custom",
    split_mode: "ratio",
    split_ratio: "2:1:1",
    split_output_dir: join(dir, "out"),
    ...env,
  });
}

function loadError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a loader error");
}

const mapping = { id_field: "uid", question_field: "q", answer_field: "a", context_field: "ctx" };
const jsonlRows = Array.from({ length: 8 }, (_, i) =>
  JSON.stringify({ uid: `u${i}`, q: `Question ${i}?`, a: i % 2 ? [`A${i}`, i] : `A${i}|alt ${i}`, ctx: `ctx ${i}` }),
);

describe("custom field mapping", () => {
  it("maps the user's fields onto {id, question, answers, context}", () => {
    const file = put("data.jsonl", `${jsonlRows.join("\n")}\n`);
    const splits = loadBenchmarkSplits(config({ data_path: file, ...mapping }), dir);
    const all = [...splits.train, ...splits.val, ...splits.test];
    expect(all).toHaveLength(8);
    const u0 = all.find((i) => i.id === "u0");
    const u1 = all.find((i) => i.id === "u1");
    expect(u0).toEqual({ id: "u0", question: "Question 0?", answers: ["A0", "alt 0"], context: "ctx 0" });
    expect(u1?.answers).toEqual(["A1", "1"]);
  });

  it("reads CSV with a header row; a |-separated cell gives several answers", () => {
    const file = put(
      "data.csv",
      ["q,a,ctx", ...Array.from({ length: 6 }, (_, i) => `"Q ${i}, really?",${i}|${i + 10},"c ${i}"`)].join("\n"),
    );
    const splits = loadBenchmarkSplits(
      config({ data_path: file, question_field: "q", answer_field: "a", context_field: "ctx" }),
      dir,
    );
    const all = [...splits.train, ...splits.val, ...splits.test];
    const q2 = all.find((i) => i.question === "Q 2, really?");
    expect(q2).toMatchObject({ answers: ["2", "12"], context: "c 2" });
    expect(q2?.id).toBe(contentId("Q 2, really?", ["2", "12"], "c 2"));
    expect(q2?.id).toMatch(/^h-[0-9a-f]{12}$/);
  });

  it("names the file, the item index and the config key of a missing or bad field", () => {
    const rows = [...jsonlRows.slice(0, 3), JSON.stringify({ uid: "x", question: "typo?", a: "A", ctx: "" })];
    const file = put("missing.jsonl", rows.join("\n"));
    const e = loadError(() => loadBenchmarkSplits(config({ data_path: file, ...mapping }), dir));
    expect(e.message).toBe(
      `${file}: item 3: missing field 'q'; the item has fields: uid, question, a, ctx (env.question_field)`,
    );
    expect(e.field).toBe("env.question_field");

    const noAnswer = put("noanswer.jsonl", JSON.stringify({ q: "Q?", a: [] }));
    expect(
      loadError(() => loadBenchmarkSplits(config({ data_path: noAnswer, question_field: "q", answer_field: "a" }), dir))
        .message,
    ).toBe(`${noAnswer}: item 0: field 'a' must be a non-empty text, a number or a list of them (env.answer_field)`);

    const noCtx = put("noctx.jsonl", JSON.stringify({ q: "Q?", a: "x" }));
    expect(loadError(() => loadBenchmarkSplits(config({ data_path: noCtx, ...mapping }), dir)).field).toBe(
      "env.context_field",
    );

    const notNumber = put(
      "nan.jsonl",
      [JSON.stringify({ q: "Q1?", a: "12" }), JSON.stringify({ q: "Q2?", a: "twelve" })].join("\n"),
    );
    expect(
      loadError(() =>
        loadBenchmarkSplits(
          config({ data_path: notNumber, question_field: "q", answer_field: "a", metric: "numeric" }),
          dir,
        ),
      ).message,
    ).toBe(`${notNumber}: item 1: gold answer 'twelve' is not a number (metric numeric) (env.answer_field)`);
  });

  it("reports two identical id-less rows instead of inventing ids for them", () => {
    const row = JSON.stringify({ question: "Same?", answer: "yes" });
    const file = put("dupes.jsonl", [row, JSON.stringify({ question: "Other?", answer: "no" }), row].join("\n"));
    expect(loadError(() => loadBenchmarkSplits(config({ data_path: file }), dir)).message).toBe(
      `${file}: item 2: same question, answer and context as item 0 and no 'id' to tell them apart (env.id_field)`,
    );
  });

  it("reads back its own generated split folders with the same config", () => {
    const file = put("again.jsonl", jsonlRows.join("\n"));
    const ratio = config({ data_path: file, ...mapping, split_output_dir: join(dir, "gen") });
    const first = loadBenchmarkSplits(ratio, dir);
    writeRatioSplit(benchmarkSplitOptions(ratio, dir));
    const again = loadBenchmarkSplits(
      config({ ...mapping, split_mode: "split_dir", split_dir: join(dir, "gen") }),
      dir,
    );
    expect(again).toEqual(first);
  });

  it("keeps split hashes stable: same file, ratio and seed → same hashes; another seed → others", () => {
    const file = put("stable.jsonl", jsonlRows.join("\n"));
    const c = config({ data_path: file, ...mapping });
    const a = fingerprintSplits(c, loadBenchmarkSplits(c, dir), dir);
    const b = fingerprintSplits(c, loadBenchmarkSplits(c, dir), dir);
    expect(b).toEqual(a);
    expect(a.dataSha256).toMatch(/^[0-9a-f]{12}$/);
    expect(a.splits.train.count + a.splits.val.count + a.splits.test.count).toBe(8);
    const other = config({ data_path: file, ...mapping, split_seed: 7 });
    expect(fingerprintSplits(other, loadBenchmarkSplits(other, dir), dir).splits.train.sha256).not.toBe(
      a.splits.train.sha256,
    );
    // Pinned: the hash is of the ordered ids, one per line.
    expect(splitIdsHash([{ id: "a" }, { id: "b" }])).toBe("7e18f737311b"); // printf "a\nb" | sha256sum
  });

  it("parses answer cells and leaves other rows untouched", () => {
    expect(parseAnswerCell(" a | b ||")).toEqual(["a", "b"]);
    expect(parseAnswerCell([1, "x"])).toEqual(["1", "x"]);
    expect(parseAnswerCell([{}])).toBeNull();
    expect(parseAnswerCell("  ")).toBeNull();
    const n = createCustomNormaliser(customOptions(buildRunConfig({ name: "custom" })));
    expect(n({ id: 7, question: "Q?", answer: "A", sim: { needs: [] }, extra: 1 }, { file: "f", index: 0 })).toEqual({
      id: "7",
      question: "Q?",
      answers: ["A"],
      sim: { needs: [] },
    });
  });
});
