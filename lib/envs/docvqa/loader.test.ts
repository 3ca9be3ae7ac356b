import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadBenchmarkSplits } from "../registry";
import { buildRunConfig, fakeClient } from "../test-helpers";
import { createDocVqaEnv } from "./index";
import { missingDocVqaField, normaliseDocVqaRow, splitDocumentPath } from "./normalise";

const SAMPLE_PNG = path.resolve("lib/envs/docvqa/sample/images/doc-02-receipt.png");
const HEADER = "questionId,question,answer,image_path,topic,docId,ucsf_document_id,ucsf_document_page_no,source_split";

let root = "";
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "docvqa-loader-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(rel: string, content: string): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

function image(rel: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  copyFileSync(SAMPLE_PNG, path.join(root, rel));
}

const config = (extra: Record<string, unknown> = {}) =>
  buildRunConfig({ name: "docvqa", split_mode: "split_dir", split_dir: "data/splits", exec_timeout: 5, ...extra });

function writeSplits(train: string): void {
  write("data/splits/train/docvqa_train.csv", train);
  write(
    "data/splits/val/docvqa_val.csv",
    `${HEADER}\n201,What is the total?,"['$16.35']",images/receipt.png,table/list,9,abc,1,validation\n`,
  );
  write(
    "data/splits/test/docvqa_test.csv",
    `${HEADER}\n301,Receipt number?,007215,/abs/missing.png,,9,abc,1,validation\n`,
  );
}

describe("DocVQA loader (CSV split folders, the original's columns)", () => {
  it("parses Python-literal answer lists, splits off document_path and maps topic to task_type", () => {
    writeSplits(
      `${HEADER}\n` +
        `101,"What is the date? document_path: pages/p1.png","['March 5, 1998', ""5 March '98""]",,"handwritten|form",7,xqc01,2,validation\n` +
        `102,Who signed it?,Dr. A. Lee,pages/p2.png,,8,xqc02,1,validation\n`,
    );
    const splits = loadBenchmarkSplits(config(), root);
    const [first, second] = splits.train;
    expect(first).toMatchObject({
      id: "101",
      question: "What is the date?",
      answers: ["March 5, 1998", "5 March '98"],
      answer: "March 5, 1998",
      image_path: "pages/p1.png",
      image_paths: ["pages/p1.png"],
      task_type: "handwritten|form",
      subtask: "handwritten|form",
      docId: "7",
      ucsf_document_id: "xqc01",
      ucsf_document_page_no: "2",
      source_split: "validation",
      source_dir: path.join(root, "data/splits/train"),
    });
    expect(second).toMatchObject({
      id: "102",
      answers: ["Dr. A. Lee"],
      task_type: "docvqa",
      image_path: "pages/p2.png",
    });
    expect(splits.val[0]).toMatchObject({ id: "201", answers: ["$16.35"], task_type: "table/list" });
  });

  it('keeps an explicit empty gold list such as [""] as no gold (stripped, empties dropped, as the original)', () => {
    const at = { file: "f.csv", index: 0 };
    expect(
      normaliseDocVqaRow({ questionId: "1", question: "Q?", answer: '[""]', image_path: "i.png" }, at),
    ).toMatchObject({ answers: [], answer: "" });
    expect(
      normaliseDocVqaRow({ questionId: "1", question: "Q?", answer: "[' a ', '']", image_path: "i.png" }, at),
    ).toMatchObject({ answers: ["a"] });
    expect(() =>
      normaliseDocVqaRow({ questionId: "1", question: "Q?", answer: "  ", image_path: "i.png" }, at),
    ).toThrow("no gold answer");
    expect(missingDocVqaField({ id: "1", question: "Q?", answers: [], image_path: "i.png" })).toBeNull();
  });

  it("names the file and item index of a row without an answer, question or image", () => {
    const file = path.join(root, "data/splits/train/docvqa_train.csv");
    writeSplits(`${HEADER}\n101,Q one?,a,p.png,,1,x,1,v\n102,Q two?,,p.png,,1,x,1,v\n`);
    expect(() => loadBenchmarkSplits(config(), root)).toThrow(
      `${file}: item 1: missing field 'answer' (or 'ground_truth'): no gold answer`,
    );
    writeSplits(`${HEADER}\n101,,a,p.png,,1,x,1,v\n`);
    expect(() => loadBenchmarkSplits(config(), root)).toThrow(`${file}: item 0: missing field 'question'`);
    writeSplits(`${HEADER}\n101,Q?,a,,,1,x,1,v\n`);
    expect(() => loadBenchmarkSplits(config(), root)).toThrow(`${file}: item 0: no document image`);
    writeSplits(`${HEADER}\n101,Q?,a,p.png,,1,x,1,v\n101,Q again?,b,p.png,,1,x,1,v\n`);
    expect(() => loadBenchmarkSplits(config(), root)).toThrow(
      `${file}: item 1: duplicate id '101' (first seen at item 0)`,
    );
  });

  it("names the line of a row with the wrong number of cells", () => {
    writeSplits(`${HEADER}\n101,Q?,a,p.png,,1,x,1,v\n102,Q?,a,p.png,,1,x,1,v,EXTRA\n`);
    expect(() => loadBenchmarkSplits(config(), root)).toThrow(/docvqa_train\.csv: not valid CSV \(line 3/);
  });

  it("reads a ratio-mode CSV data file too", () => {
    const rows = Array.from(
      { length: 8 },
      (_, i) => `${i + 1},Question ${i + 1}?,"['a${i}']",img/${i}.png,form,1,x,1,v`,
    );
    write("raw/docvqa.csv", `${HEADER}\n${rows.join("\n")}\n`);
    const splits = loadBenchmarkSplits(
      config({ split_mode: "ratio", data_path: "raw/docvqa.csv", split_ratio: "2:1:1" }),
      root,
    );
    expect(splits.train.length + splits.val.length + splits.test.length).toBe(8);
    expect(splits.train[0]).toMatchObject({ source_dir: path.join(root, "raw"), task_type: "form" });
  });

  it("resolves images next to the CSV, then under split_dir, then under the project root", async () => {
    image("data/splits/train/pages/p1.png"); // next to the CSV
    image("data/splits/images/receipt.png"); // under split_dir
    image("pages/p2.png"); // under the project root
    writeSplits(
      `${HEADER}\n101,"Q one? document_path: pages/p1.png",a,,,1,x,1,v\n102,Q two?,b,pages/p2.png,,1,x,1,v\n`,
    );
    const splits = loadBenchmarkSplits(config(), root);
    const env = createDocVqaEnv(config(), splits, { rootDir: root, vars: {} });
    const client = fakeClient(() => "<answer>a</answer>");
    const run = (item: (typeof splits.train)[number]) =>
      env.rollout({ item, skill: "", client, phase: "train", seed: 1, useEvalFeedback: true });
    const t1 = await run(splits.train[0]!);
    const t2 = await run(splits.train[1]!);
    const t3 = await run(splits.val[0]!);
    expect(t1.extras?.image_path).toBe(path.join(root, "data/splits/train/pages/p1.png"));
    expect(t2.extras?.image_path).toBe(path.join(root, "pages/p2.png"));
    expect(t3.extras?.image_path).toBe(path.join(root, "data/splits/images/receipt.png"));
    expect([t1.hard, t2.hard, t3.status]).toEqual([1, 0, "ok"]);
    const t4 = await run(splits.test[0]!);
    expect(t4).toMatchObject({
      status: "error",
      failReason: "error: document image '/abs/missing.png' not found (looked in /abs/missing.png)",
    });
    expect(client.calls).toHaveLength(3);
  });
});

describe("normaliseDocVqaRow", () => {
  const at = { file: "sample", index: 3 };

  it("splits document_path off the question", () => {
    expect(splitDocumentPath("What is it?  document_path: a b/c.png ")).toEqual({
      question: "What is it?",
      documentPath: "a b/c.png",
    });
    expect(splitDocumentPath("No path here")).toEqual({ question: "No path here", documentPath: null });
  });

  it("accepts id/ground_truth/category spellings and list topics, and is idempotent", () => {
    const once = normaliseDocVqaRow(
      { id: 5, question: "Q?", ground_truth: '["x", "y"]', category: "['table/list', 'layout']", image_path: "i.png" },
      at,
    );
    expect(once).toMatchObject({
      id: "5",
      answers: ["x", "y"],
      answer: "x",
      task_type: "table/list|layout",
      image_paths: ["i.png"],
    });
    expect(once.source_dir).toBeUndefined();
    expect(normaliseDocVqaRow(once, at)).toEqual(once);
  });

  it("names the index of a row without any id", () => {
    expect(() => normaliseDocVqaRow({ question: "Q?", answer: "a", image_path: "i.png" }, at)).toThrow(
      "sample: item 3: missing field 'questionId' (or 'id')",
    );
  });
});
