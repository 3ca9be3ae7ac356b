import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSplits } from "../loader";
import { buildRunConfig } from "../test-helpers";
import { officeQaBenchmark } from "./index";
import { normaliseOfficeQaRow, parseListField } from "./normalise";

const at = { file: "f.csv", index: 3 };

describe("parseListField", () => {
  it("reads JSON lists, JSON-list strings, newline and comma separated text", () => {
    expect(parseListField(["a.txt", " b.txt "])).toEqual(["a.txt", "b.txt"]);
    expect(parseListField('["treasury_bulletin_1941_01.txt", "x.txt"]')).toEqual([
      "treasury_bulletin_1941_01.txt",
      "x.txt",
    ]);
    expect(parseListField("a.txt\nb.txt\n")).toEqual(["a.txt", "b.txt"]);
    expect(parseListField("a.pdf, b.pdf")).toEqual(["a.pdf", "b.pdf"]);
    expect(parseListField("report, final.txt")).toEqual(["report, final.txt"]);
    expect(parseListField("a.txt, b.txt")).toEqual(["a.txt, b.txt"]);
    expect(parseListField("")).toEqual([]);
    expect(parseListField(undefined)).toEqual([]);
    expect(parseListField({ a: 1 })).toBeNull();
  });
});

describe("normaliseOfficeQaRow", () => {
  it("maps uid/ground_truth/category of the original's rows and adds answers", () => {
    const out = normaliseOfficeQaRow(
      {
        uid: "UID0042",
        question: "Q?",
        ground_truth: "1,204",
        category: "Hard",
        source_files: '["a.txt"]',
        source_docs: "https://x/y?page=3",
        split: "train",
      },
      at,
    );
    expect(out).toMatchObject({
      id: "UID0042",
      ground_truth: "1,204",
      answers: ["1,204"],
      task_type: "Hard",
      source_files: ["a.txt"],
      source_docs: ["https://x/y?page=3"],
      split: "train",
    });
  });
  it("accepts id/answer/difficulty spellings", () => {
    expect(normaliseOfficeQaRow({ id: 7, question: "Q?", answer: 12, difficulty: "easy" }, at)).toMatchObject({
      id: "7",
      ground_truth: "12",
      answers: ["12"],
      task_type: "easy",
      source_files: [],
      source_docs: [],
    });
  });
  it("names the file, the item index and the field of a bad row", () => {
    expect(() => normaliseOfficeQaRow({ question: "Q?", answer: "1" }, at)).toThrow(
      "f.csv: item 3: missing field 'uid' (or 'id')",
    );
    expect(() => normaliseOfficeQaRow({ uid: "u", answer: "1" }, at)).toThrow(
      "f.csv: item 3: missing field 'question'",
    );
    expect(() => normaliseOfficeQaRow({ uid: "u", question: "Q?", ground_truth: "" }, at)).toThrow(
      "f.csv: item 3: missing field 'ground_truth' (or 'answer')",
    );
    expect(() => normaliseOfficeQaRow({ uid: "u", question: "Q?", answer: "1", source_files: 5 }, at)).toThrow(
      "field 'source_files' must be a list",
    );
  });
});

describe("split_dir loading in the original's format", () => {
  const config = (dir: string) => buildRunConfig({ name: "officeqa", split_mode: "split_dir", split_dir: dir });
  const load = (dir: string) =>
    loadSplits({
      config: config(dir),
      rootDir: "/",
      normalise: officeQaBenchmark.normalise,
      splitFileTypes: officeQaBenchmark.splitFileTypes,
    });
  const header = "uid,question,ground_truth,category,source_files,source_docs,split";

  function fixture(files: Record<string, string>): string {
    const dir = mkdtempSync(path.join(tmpdir(), "officeqa-split-"));
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    return dir;
  }

  it("prefers the CSV of a split folder, else its JSON", () => {
    const dir = fixture({
      "train/officeqa.csv": `${header}\nUID1,"What was X, in millions?","1,204.5",easy,"[""treasury_bulletin_1941_01.txt""]",https://example.org/b.pdf?page=4,train\n`,
      "train/ignored.json": "[]",
      "val/items.json": JSON.stringify([
        { id: "UID2", question: "Q2?", answer: "7", difficulty: "hard", source_files: "a.txt\nb.txt" },
      ]),
      "test/items.json": JSON.stringify([
        { uid: "UID3", question: "Q3?", ground_truth: "3%", category: "easy", source_files: ["c.txt"] },
      ]),
    });
    const splits = load(dir);
    expect(splits.train[0]).toMatchObject({
      id: "UID1",
      question: "What was X, in millions?",
      answers: ["1,204.5"],
      task_type: "easy",
      source_files: ["treasury_bulletin_1941_01.txt"],
    });
    expect(splits.val[0]).toMatchObject({ id: "UID2", source_files: ["a.txt", "b.txt"], task_type: "hard" });
    expect(splits.test[0]).toMatchObject({ id: "UID3", answers: ["3%"] });
  });

  it("rejects a malformed row naming the file and the item index", () => {
    const dir = fixture({
      "train/officeqa.csv": `${header}\nUID1,Q1?,1,easy,a.txt,,train\nUID2,Q2?,,hard,b.txt,,train\n`,
      "val/items.json": "[]",
      "test/items.json": "[]",
    });
    expect(() => load(dir)).toThrow(/train\/officeqa\.csv: item 1: missing field 'ground_truth' \(or 'answer'\)/);
  });

  it("rejects a CSV row with the wrong number of cells", () => {
    const dir = fixture({ "train/a.csv": `${header}\nUID1,Q1?,1\n`, "val/a.json": "[]", "test/a.json": "[]" });
    expect(() => load(dir)).toThrow(/train\/a\.csv: not valid CSV/);
  });
});
