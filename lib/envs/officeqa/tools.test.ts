import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { corpusCandidates, listCorpusFiles, resolveCorpusRoots } from "./corpus";
import { createToolRuntime, fnmatchRegExp, GLOB_MAX_HITS, GREP_MAX_HITS, READ_MAX_CHARS } from "./tools";

function corpus(): { base: string; root: string } {
  const base = mkdtempSync(path.join(tmpdir(), "officeqa-tools-"));
  const root = path.join(base, "docs");
  mkdirSync(path.join(root, "bulletins"), { recursive: true });
  writeFileSync(
    path.join(root, "bulletins", "b_2024_03.md"),
    ["# March", "Operating cash | 62.4", "Reserve fund | 18.9"].join("\n"),
  );
  writeFileSync(
    path.join(root, "bulletins", "b_2024_06.md"),
    ["# June", "Operating cash | 71.8", "Reserve fund | 19.6"].join("\n"),
  );
  writeFileSync(
    path.join(root, "budget.md"),
    Array.from({ length: 200 }, (_, i) => `line ${i + 1} Police ${"x".repeat(60)}`).join("\n"),
  );
  writeFileSync(path.join(base, "secret.txt"), "top secret");
  symlinkSync(path.join(base, "secret.txt"), path.join(root, "leak.md"));
  return { base, root };
}

function runtime(sourceFiles: string[] = []) {
  const { base, root } = corpus();
  const roots = resolveCorpusRoots({ rootDir: base, dataDirs: ["docs"], vars: {}, sample: false });
  return { base, root, tools: createToolRuntime({ roots, files: listCorpusFiles(roots), sourceFiles }) };
}

describe("corpus roots", () => {
  it("tries data_dirs, then OFFICEQA_DOCS_DIR (comma or path-separator list), then the default folders", () => {
    const tried = corpusCandidates({
      rootDir: "/r",
      dataDirs: ["d1"],
      vars: { OFFICEQA_DOCS_DIR: "/e1:/e2,/e3" },
      sample: false,
    });
    expect(tried).toEqual([
      "/r/d1",
      "/e1",
      "/e2",
      "/e3",
      "/r/data/officeqa_docs_official",
      "/r/data/officeqa_smoke_docs",
    ]);
    expect(corpusCandidates({ rootDir: "/r", dataDirs: ["d1"], vars: {}, sample: true })).toEqual([
      "/r/lib/envs/officeqa/sample/docs",
    ]);
  });

  it("keeps every existing root once and prefers a transformed/ subfolder", () => {
    const { base, root } = corpus();
    mkdirSync(path.join(base, "other", "transformed"), { recursive: true });
    const roots = resolveCorpusRoots({
      rootDir: base,
      dataDirs: ["docs", "missing", "other"],
      vars: { OFFICEQA_DOCS_DIR: root },
      sample: false,
    });
    expect(roots).toEqual([root, path.join(base, "other", "transformed")]);
  });

  it("fails with every folder it tried when none exists", () => {
    expect(() => resolveCorpusRoots({ rootDir: "/nonexistent", dataDirs: ["x"], vars: {}, sample: false })).toThrow(
      "officeqa: no document corpus found; tried /nonexistent/x, /nonexistent/data/officeqa_docs_official, /nonexistent/data/officeqa_smoke_docs (set env.data_dirs or OFFICEQA_DOCS_DIR)",
    );
  });

  it("lists regular files only (no symlinks, no hidden files), sorted by relative path", () => {
    const { root } = corpus();
    writeFileSync(path.join(root, ".hidden"), "x");
    expect(listCorpusFiles([root]).map((f) => f.rel)).toEqual([
      "budget.md",
      "bulletins/b_2024_03.md",
      "bulletins/b_2024_06.md",
    ]);
  });
});

describe("fnmatchRegExp", () => {
  it("supports * ? and character classes", () => {
    expect(fnmatchRegExp("*2024_0?.md").test("bulletins/b_2024_06.md")).toBe(true);
    expect(fnmatchRegExp("b_2024_0[!3].md").test("b_2024_03.md")).toBe(false);
    expect(fnmatchRegExp("b_2024_0[36].md").test("b_2024_06.md")).toBe(true);
    expect(fnmatchRegExp("a.b").test("axb")).toBe(false);
  });
});

describe("tools", () => {
  it("glob matches the relative path or the basename", () => {
    const { tools } = runtime();
    expect(tools.run({ name: "glob", arguments: { pattern: "b_*.md" } })).toBe(
      "bulletins/b_2024_03.md\nbulletins/b_2024_06.md",
    );
    expect(tools.run({ name: "glob", arguments: { pattern: "bulletins/*06*" } })).toBe("bulletins/b_2024_06.md");
    expect(tools.run({ name: "glob", arguments: { pattern: "*.pdf" } })).toBe("no files match '*.pdf'");
    expect(tools.run({ name: "glob", arguments: {} })).toBe("error: glob needs a 'pattern' argument");
  });

  it("glob shows at most 50 paths", () => {
    const base = mkdtempSync(path.join(tmpdir(), "officeqa-many-"));
    for (let i = 0; i < 60; i++) writeFileSync(path.join(base, `f${String(i).padStart(2, "0")}.txt`), "x");
    const tools = createToolRuntime({ roots: [base], files: listCorpusFiles([base]), sourceFiles: [] });
    const lines = tools.run({ name: "glob", arguments: { pattern: "*.txt" } }).split("\n");
    expect(lines).toHaveLength(GLOB_MAX_HITS + 1);
    expect(lines.at(-1)).toBe("[... 10 more files not shown ...]");
  });

  it("read returns a numbered line window capped at 4000 characters", () => {
    const { tools } = runtime();
    expect(tools.run({ name: "read", arguments: { path: "bulletins/b_2024_06.md", start: 2, limit: 1 } })).toBe(
      "bulletins/b_2024_06.md (lines 2-2 of 3)\n2: Operating cash | 71.8",
    );
    const big = tools.run({ name: "read", arguments: { path: "budget.md" } });
    expect(big.startsWith("budget.md (lines 1-80 of 200)")).toBe(true);
    expect(big.length).toBeLessThan(READ_MAX_CHARS + 200);
    expect(big).toContain("[... cut at 4000 characters; read a smaller window ...]");
    expect(tools.run({ name: "read", arguments: { path: "budget.md", start: 500 } })).toBe(
      "error: budget.md has only 200 lines",
    );
    expect(tools.run({ name: "read", arguments: { path: "budget.md", start: 0 } })).toBe(
      "error: 'start' must be a line number ≥ 1",
    );
    expect(tools.run({ name: "read", arguments: { path: "b_2024_03.md", limit: "2" } })).toBe(
      "bulletins/b_2024_03.md (lines 1-2 of 3)\n1: # March\n2: Operating cash | 62.4",
    );
  });

  it("grep is a case-insensitive literal search with at most 20 hits", () => {
    const { tools } = runtime();
    expect(tools.run({ name: "grep", arguments: { pattern: "RESERVE FUND", path: "bulletins/b_2024_06.md" } })).toBe(
      "3: Reserve fund | 19.6",
    );
    expect(tools.run({ name: "grep", arguments: { pattern: "operating cash" } })).toBe(
      "bulletins/b_2024_03.md:2: Operating cash | 62.4\nbulletins/b_2024_06.md:2: Operating cash | 71.8",
    );
    expect(tools.run({ name: "grep", arguments: { pattern: "|", path: "b_2024_03.md" } })).toBe(
      "2: Operating cash | 62.4\n3: Reserve fund | 18.9",
    );
    const many = tools.run({ name: "grep", arguments: { pattern: "police", path: "budget.md" } }).split("\n");
    expect(many).toHaveLength(GREP_MAX_HITS + 1);
    expect(many.at(-1)).toBe("[... 180 more matching lines not shown ...]");
    expect(tools.run({ name: "grep", arguments: { pattern: "zzz" } })).toBe("no lines contain 'zzz'");
  });

  it("refuses paths that leave the roots, including through a symlink", () => {
    const { base, tools } = runtime();
    const refused = "leaves the document folders";
    expect(tools.run({ name: "read", arguments: { path: "../secret.txt" } })).toContain(refused);
    expect(tools.run({ name: "read", arguments: { path: "bulletins/../../secret.txt" } })).toContain(refused);
    expect(tools.run({ name: "read", arguments: { path: path.join(base, "secret.txt") } })).toContain(refused);
    expect(tools.run({ name: "read", arguments: { path: "leak.md" } })).toContain(refused);
    expect(tools.run({ name: "grep", arguments: { pattern: "secret", path: "leak.md" } })).toContain(refused);
    expect(tools.run({ name: "read", arguments: { path: "/etc/passwd" } })).toContain(refused);
  });

  it("allows only the item's source files when it names some", () => {
    const { root, tools } = runtime(["b_2024_06.md"]);
    expect(tools.candidates.map((f) => f.rel)).toEqual(["bulletins/b_2024_06.md"]);
    expect(tools.run({ name: "read", arguments: { path: "bulletins/b_2024_03.md" } })).toBe(
      "error: 'bulletins/b_2024_03.md' is not one of this question's source files (b_2024_06.md)",
    );
    expect(tools.run({ name: "grep", arguments: { pattern: "operating cash" } })).toBe("2: Operating cash | 71.8");
    expect(tools.run({ name: "glob", arguments: { pattern: "*" } })).toBe("bulletins/b_2024_06.md");
    expect(
      tools.run({ name: "read", arguments: { path: path.join(root, "bulletins", "b_2024_06.md"), limit: 1 } }),
    ).toContain("1: # June");
  });

  it("never exposes split folders or hidden files, even by direct path", () => {
    const { root } = corpus();
    mkdirSync(path.join(root, "officeqa_split", "test"), { recursive: true });
    writeFileSync(path.join(root, "officeqa_split", "test", "items.json"), '[{"answer": "19.6"}]');
    writeFileSync(path.join(root, ".notes.md"), "answer 19.6");
    const files = listCorpusFiles([root]);
    expect(files.map((f) => f.rel)).toEqual(["budget.md", "bulletins/b_2024_03.md", "bulletins/b_2024_06.md"]);
    const tools = createToolRuntime({ roots: [root], files, sourceFiles: [] });
    expect(tools.run({ name: "read", arguments: { path: "officeqa_split/test/items.json" } })).toBe(
      "error: 'officeqa_split/test/items.json' is not a document of the corpus",
    );
    expect(tools.run({ name: "read", arguments: { path: ".notes.md" } })).toBe(
      "error: '.notes.md' is not a document of the corpus",
    );
    expect(tools.run({ name: "grep", arguments: { pattern: "19.6" } })).toBe(
      "bulletins/b_2024_06.md:3: Reserve fund | 19.6",
    );
  });

  it("answers unknown tools and missing files with an error line", () => {
    const { tools } = runtime();
    expect(tools.run({ name: "delete", arguments: {} })).toBe(
      "error: unknown tool 'delete' (available: glob, read, grep)",
    );
    expect(tools.run({ name: "read", arguments: { path: "nope.md" } })).toBe(
      "error: no document 'nope.md' (use glob to list the files)",
    );
    expect(tools.run({ name: "read", arguments: { path: "bulletins" } })).toBe("error: 'bulletins' is not a file");
  });
});
