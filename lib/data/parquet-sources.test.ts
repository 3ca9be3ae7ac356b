/**
 * Pulls of the benchmarks whose Hugging Face files are parquet (SearchQA, DocVQA) or a tarball
 * (SpreadsheetBench), against a local HTTP server. The parquet fixtures are written here with
 * hyparquet-writer in the shapes the HF datasets use (string columns, LIST<string>, image STRUCT).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBenchmarkSplits } from "../envs";
import { readSplitFile } from "../envs/common/read-items";
import { buildRunConfig } from "../envs/test-helpers";
import { pullBenchmark } from "./pull";
import { readParquetKeyed, readParquetRows } from "./parquet";
import { makeTarGz, startFixtureServer, type FixtureServer } from "./testing";

const FIXTURES = path.join(import.meta.dirname, "../../tests/fixtures/data-pull");
const tmp = mkdtempSync(path.join(tmpdir(), "skillopt-data-pq-"));
const noSleep = () => Promise.resolve();
const readJson = (p: string) => JSON.parse(readFileSync(p, "utf8"));

const STR = { type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" } as const;
const listOf = (name: string) => [
  { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", ...STR },
] as const;

function searchQaParquet(rows: Array<Record<string, unknown>>, rowGroupSize?: number): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({
    ...(rowGroupSize ? { rowGroupSize } : {}),
    columnData: ["key", "question", "context", "answers"].map((name) => ({ name, data: rows.map((r) => r[name]) })),
    schema: [{ name: "root", num_children: 4 }, { name: "key", ...STR }, { name: "question", ...STR }, { name: "context", ...STR }, ...listOf("answers")] as never,
  }));
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9, 9]);

function docVqaParquet(rows: Array<{ questionId: string; question: string; answers: string[]; question_types: string[]; docId: bigint; image: Uint8Array | null }>): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({
    columnData: [
      { name: "questionId", data: rows.map((r) => r.questionId) },
      { name: "question", data: rows.map((r) => r.question) },
      { name: "question_types", data: rows.map((r) => r.question_types) },
      { name: "image", data: rows.map((r) => (r.image ? { bytes: r.image, path: null } : null)) },
      { name: "docId", data: rows.map((r) => r.docId) },
      { name: "answers", data: rows.map((r) => r.answers) },
    ],
    schema: [
      { name: "root", num_children: 6 },
      { name: "questionId", ...STR }, { name: "question", ...STR }, ...listOf("question_types"),
      { name: "image", repetition_type: "OPTIONAL", num_children: 2 },
      { name: "bytes", type: "BYTE_ARRAY", repetition_type: "OPTIONAL" }, { name: "path", ...STR },
      { name: "docId", type: "INT64", repetition_type: "OPTIONAL" }, ...listOf("answers"),
    ] as never,
  }));
}

const SQ = "/datasets/lucadiliello/searchqa/resolve/main/data";
const DV = "/datasets/lmms-lab/DocVQA/resolve/main/DocVQA";
const DVM = "/microsoft/SkillOpt/main/data/docvqa_id_split";
const SB = "/microsoft/SkillOpt/main/data/spreadsheetbench_id_split";
const manifestItem = (id: string, docId: string, topic: string) => ({ id, questionId: id, docId, image_path: `data/docvqa_images/q${id}_d${docId}.png`, topic, source_split: "validation", sample_seed: 42 });
const sqRows: Array<Record<string, unknown>> = readJson(path.join(FIXTURES, "searchqa-rows.json"));

function docFiles(docRows: Parameters<typeof docVqaParquet>[0]) {
  return {
    [`${DVM}/split_manifest.json`]: JSON.stringify({ benchmark: "docvqa", counts: { train: 1, val: 1, test: 1 } }),
    [`${DVM}/train/items.json`]: JSON.stringify([manifestItem("50877", "14724", "handwritten|form")]),
    [`${DVM}/val/items.json`]: JSON.stringify([manifestItem("50001", "200", "table/list")]),
    [`${DVM}/test/items.json`]: JSON.stringify([manifestItem("50002", "201", "layout")]),
    [`${DV}/validation-00000-of-00001.parquet`]: docVqaParquet(docRows),
    [`${DV}/test-00000-of-00001.parquet`]: "not a parquet file: must not be read",
  };
}
const goodDocRows = [
  { questionId: "50002", question: "What is the date?", answers: ["May 5, 1972"], question_types: ["layout"], docId: 201n, image: JPEG },
  { questionId: "50877", question: "Who signed the form, \"exactly\"?", answers: ["J. Doe", "John Doe"], question_types: ["handwritten", "form"], docId: 14724n, image: PNG },
  { questionId: "99999", question: "unwanted", answers: ["x"], question_types: [], docId: 1n, image: PNG },
  { questionId: "50001", question: "Total, in $?", answers: ["1,234"], question_types: ["table/list"], docId: 200n, image: PNG },
];

const tasks = [
  { id: "32438", instruction: "Sum column B into C1.", instruction_type: "Cell-Level Manipulation", answer_position: "Sheet1!C1", spreadsheet_path: "spreadsheet/32438" },
  { id: "77", instruction: "Sort by date.", instruction_type: "Sheet-Level Manipulation", answer_position: "'Data'!A1:D20", spreadsheet_path: "spreadsheet/77" },
  { id: "5", instruction: "unwanted", instruction_type: "Cell-Level Manipulation", answer_position: "A1", spreadsheet_path: "spreadsheet/5" },
  { id: "9", instruction: "Fill blanks.", instruction_type: "Cell-Level Manipulation", answer_position: "A1:A9", spreadsheet_path: "spreadsheet/9" },
];
const tarball = makeTarGz({
  "spreadsheetbench_verified_400/dataset.json": JSON.stringify(tasks),
  "spreadsheetbench_verified_400/spreadsheet/32438/1_32438_input.xlsx": "in-1",
  "spreadsheetbench_verified_400/spreadsheet/32438/1_32438_answer.xlsx": "ans-1",
  "spreadsheetbench_verified_400/spreadsheet/77/initial.xlsx": "in-77",
  "spreadsheetbench_verified_400/spreadsheet/77/golden.xlsx": "gold-77",
  "spreadsheetbench_verified_400/spreadsheet/5/initial.xlsx": "unwanted",
  "spreadsheetbench_verified_400/spreadsheet/9/1_9_init.xlsx": "in-9",
  "spreadsheetbench_verified_400/spreadsheet/9/1_9_golden.xlsx": "gold-9",
});

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer({
    root: path.join(FIXTURES, "mirror"),
    files: {
      [`${SQ}/train-00000-of-00002.parquet`]: searchQaParquet(sqRows.slice(0, 3), 2),
      [`${SQ}/validation-00000-of-00001.parquet`]: searchQaParquet(sqRows.slice(3)),
      [`${SQ}/README.md`]: "ignored",
      ...docFiles(goodDocRows),
      [`${SB}/split_manifest.json`]: JSON.stringify({ counts: { train: 1, val: 1, test: 1 } }),
      [`${SB}/train/items.json`]: JSON.stringify([{ id: "32438", spreadsheet_path: "spreadsheet/32438", instruction_type: "Cell-Level Manipulation" }]),
      [`${SB}/val/items.json`]: JSON.stringify([{ id: "77", spreadsheet_path: "spreadsheet/77", instruction_type: "Sheet-Level Manipulation" }]),
      [`${SB}/test/items.json`]: JSON.stringify([{ id: 9, spreadsheet_path: "spreadsheet/9", instruction_type: "Cell-Level Manipulation" }]),
      "/datasets/KAKA22/SpreadsheetBench/resolve/ab0b742b0fc95b946f212d80ac7771b5531272e4/spreadsheetbench_verified_400.tar.gz": tarball,
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("readParquetRows", () => {
  it("reads strings, lists, binary structs and int64", async () => {
    const rows = await readParquetRows(docVqaParquet(goodDocRows.slice(0, 1)));
    expect(rows[0]).toMatchObject({ questionId: "50002", answers: ["May 5, 1972"], question_types: ["layout"], docId: 201n });
    expect((rows[0]!.image as { bytes: Uint8Array }).bytes).toEqual(JPEG);
    await expect(readParquetRows(new Uint8Array([1, 2, 3]), "x.parquet")).rejects.toThrow(/x\.parquet: cannot read parquet/);
  });

  it("reads every key but only the wanted rows, across row groups", async () => {
    const file = searchQaParquet(sqRows, 2);
    const { keys, rows } = await readParquetKeyed(file, { keyColumn: "key", wants: (k) => k === "sq-c3" || k === "sq-b2" });
    expect(keys).toEqual(sqRows.map((r) => r.key));
    expect([...rows.keys()]).toEqual([1, 4]);
    expect(rows.get(4)).toMatchObject({ key: "sq-c3", answers: ["8", "eight"] });
    await expect(readParquetKeyed(file, { keyColumn: "uid", wants: () => true, where: "f.parquet" })).rejects.toThrow("f.parquet: no 'uid' column (has key, question, context, answers)");
  });
});

describe("SearchQA from parquet shards", () => {
  it("scans every shard of the listing and writes {id, question, context, answers}", async () => {
    const res = await pullBenchmark({ benchmark: "searchqa", rootDir: tmp, mirror: server.url, sleep: noSleep });
    expect(res.out).toBe(path.join(tmp, "data/searchqa_split"));
    expect(server.requests).toContain("/api/datasets/lucadiliello/searchqa/tree/main/data");
    expect(server.requests).not.toContain(`${SQ}/README.md`);
    const train = readJson(path.join(res.out, "train/items.json"));
    expect(train).toEqual([
      { id: "sq-a1", question: "What is the capital of Peru?", context: "[DOC] [TLE] Peru [PAR] Lima is the capital.", answers: ["Lima"] },
      { id: "sq-b2", question: "Which river flows through Vienna?", context: "[DOC] [TLE] Vienna [PAR] The Danube passes the city.", answers: ["Danube", "the Danube"] },
    ]);
    expect(readJson(path.join(res.out, "split_manifest.json"))).toMatchObject({ source_dataset: "lucadiliello/searchqa", item_fields: ["id", "question", "context", "answers"], counts: { train: 2, val: 1, test: 2 } });
    const splits = loadBenchmarkSplits(buildRunConfig({ name: "searchqa", split_mode: "split_dir", split_dir: "data/searchqa_split" }), tmp);
    expect(splits.test.map((i) => i.id)).toEqual(["sq-d4", "sq-e5"]);
  });

  it("fails on ids missing from every shard", async () => {
    const only = await startFixtureServer({ root: path.join(FIXTURES, "mirror"), files: { [`${SQ}/train-00000-of-00001.parquet`]: searchQaParquet(sqRows.slice(0, 2)) } });
    try {
      await expect(pullBenchmark({ benchmark: "searchqa", rootDir: tmp, out: "sq-missing", mirror: only.url, sleep: noSleep }))
        .rejects.toThrow("4 of 5 manifest ids not found in lucadiliello/searchqa (2 rows scanned): 'sq-a1', 'sq-c3', 'sq-d4', 'sq-e5'");
      expect(existsSync(path.join(tmp, "sq-missing"))).toBe(false);
    } finally {
      await only.close();
    }
  });
});

describe("DocVQA from the validation parquet", () => {
  it("writes a CSV per split and the page images", async () => {
    const res = await pullBenchmark({ benchmark: "docvqa", rootDir: tmp, mirror: server.url, sleep: noSleep });
    expect(res.out).toBe(path.join(tmp, "data/docvqa/splits"));
    expect(server.requests).not.toContain(`${DV}/test-00000-of-00001.parquet`);
    const train = readSplitFile(path.join(res.out, "train/train.csv")) as Record<string, string>[];
    expect(train).toEqual([{
      questionId: "50877", question: "Who signed the form, \"exactly\"?", answer: '["J. Doe","John Doe"]',
      image_path: "data/docvqa/splits/images/q50877_d14724.png", topic: "handwritten|form", docId: "14724",
      ucsf_document_id: "", ucsf_document_page_no: "", source_split: "validation",
    }]);
    expect(new Uint8Array(readFileSync(path.join(tmp, train[0]!.image_path!)))).toEqual(PNG);
    const test = readSplitFile(path.join(res.out, "test/test.csv")) as Record<string, string>[];
    expect(test[0]!.image_path).toBe("data/docvqa/splits/images/q50002_d201.jpg");
    expect(new Uint8Array(readFileSync(path.join(tmp, test[0]!.image_path!)))).toEqual(JPEG);
  });

  it("an item without image bytes is an error naming the id", async () => {
    const rows = goodDocRows.map((r) => (r.questionId === "50001" ? { ...r, image: null } : r));
    const bad = await startFixtureServer({ files: docFiles(rows) });
    try {
      await expect(pullBenchmark({ benchmark: "docvqa", rootDir: tmp, out: "dv-bad", mirror: bad.url, sleep: noSleep }))
        .rejects.toThrow("lmms-lab/DocVQA: id '50001' lacks required field 'image'");
      expect(existsSync(path.join(tmp, "dv-bad"))).toBe(false);
    } finally {
      await bad.close();
    }
  });
});

describe("SpreadsheetBench from the tarball", () => {
  it("writes items per split and unpacks only the wanted task folders", async () => {
    const res = await pullBenchmark({ benchmark: "spreadsheetbench", rootDir: tmp, mirror: server.url, sleep: noSleep });
    expect(readJson(path.join(res.out, "val/items.json"))).toEqual([
      { id: "77", instruction: "Sort by date.", instruction_type: "Sheet-Level Manipulation", answer_position: "'Data'!A1:D20", spreadsheet_path: "spreadsheet/77" },
    ]);
    expect(readJson(path.join(res.out, "test/items.json"))[0].id).toBe("9");
    const root = path.join(res.out, "spreadsheetbench_verified_400/spreadsheet");
    expect(readFileSync(path.join(root, "32438/1_32438_answer.xlsx"), "utf8")).toBe("ans-1");
    expect(readFileSync(path.join(root, "9/1_9_golden.xlsx"), "utf8")).toBe("gold-9");
    expect(existsSync(path.join(root, "5"))).toBe(false);
    expect(res.notes[0]).toContain("env.data_root=data/spreadsheetbench_split/spreadsheetbench_verified_400");
  });
});
