import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type FixtureServer } from "../lib/data/testing";
import { loadBenchmarkSplits } from "../lib/envs";
import { buildRunConfig } from "../lib/envs/test-helpers";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-cli-data-"));
let server: FixtureServer;
let missing: FixtureServer;

beforeAll(async () => {
  const mirror = join(root, "tests/fixtures/data-pull/mirror");
  server = await startFixtureServer({ root: mirror, gated: { prefix: "/datasets/databricks/", token: "hf_cli" } });
  missing = await startFixtureServer({
    root: mirror,
    files: {
      "/microsoft/SkillOpt/main/data/officeqa_id_split/test/items.json": JSON.stringify([
        { id: "UID0003" },
        { id: "UID0404" },
      ]),
    },
  });
});
afterAll(async () => {
  await Promise.all([server.close(), missing.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process's event loop (the fixture server lives here). */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
  delete base.HF_TOKEN;
  delete base.SKILLOPT_DATA_MIRROR;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    cwd: root,
    env: { ...base, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

function expectOneLineError(r: { code: number | null; stderr: string }, message: RegExp) {
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split("\n");
  expect(lines.filter((l) => /error/i.test(l))).toHaveLength(1);
  expect(lines.at(-1)).toMatch(/^error: /);
  expect(lines.at(-1)).toMatch(message);
}

describe("skillopt data", () => {
  it("pull livemath through --mirror: progress on stderr, summary on stdout, a loadable split_dir", async () => {
    const out = join(tmp, "lm");
    const r = await cli(["data", "pull", "livemath", "--out", out, "--mirror", server.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^livemath: wrote .*lm \(train 2 · val 1 · test 2\)\n$/);
    expect(r.stderr).toMatch(/\/data\/202511\/qa_202511_final\.json {2}\d+(\.\d)? (B|KB) \/ \d+(\.\d)? (B|KB)/);
    const splits = loadBenchmarkSplits(
      buildRunConfig({ name: "livemath", split_mode: "split_dir", split_dir: out }),
      root,
    );
    expect(splits.train.map((i) => i.id)).toEqual(["202511:2", "202512:1"]);
  }, 30_000);

  it("pull officeqa with SKILLOPT_DATA_MIRROR and HF_TOKEN from the environment", async () => {
    const out = join(tmp, "oq");
    const r = await cli(["data", "pull", "officeqa", "--out", out], {
      SKILLOPT_DATA_MIRROR: server.url,
      HF_TOKEN: "hf_cli",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`using mirror ${server.url}`);
    expect(r.stdout).toMatch(/officeqa: wrote .*oq \(train 2 · val 1 · test 1\)\nnote: .*officeqa_docs_official/);
    expect(readFileSync(join(out, "val/val.csv"), "utf8")).toContain("UID0004");
  }, 30_000);

  it("refuses an existing output folder without --force, replaces it with --force", async () => {
    const out = join(tmp, "lm");
    expectOneLineError(
      await cli(["data", "pull", "livemath", "--out", out, "--mirror", server.url]),
      /lm already exists; pass --force to replace it$/,
    );
    expect((await cli(["data", "pull", "livemath", "--out", out, "--mirror", server.url, "--force"])).code).toBe(0);
  }, 30_000);

  it.each([
    ["gated dataset without HF_TOKEN", ["officeqa"], () => server.url, /access denied \(HTTP 401\).*set HF_TOKEN/],
    [
      "missing ids",
      ["officeqa"],
      () => missing.url,
      /1 of 5 manifest ids not found in databricks\/officeqa .*'UID0404'$/,
    ],
    [
      "a 404",
      ["searchqa"],
      () => `${server.url}/nothing-here`,
      /^error: not found \(HTTP 404\): http:\/\/127\.0\.0\.1:\d+\/nothing-here\/microsoft\/SkillOpt\/main\/data\/searchqa_id_split\/split_manifest\.json$/,
    ],
    ["an unknown benchmark", ["mmlu"], () => server.url, /unknown benchmark 'mmlu'; known: searchqa, livemath/],
    ["a bad mirror", ["alfworld"], () => "ftp://x", /--mirror: must be an http\(s\) URL/],
  ])(
    "fails in one line, writing nothing: %s",
    async (name, args, mirror, message) => {
      const out = join(tmp, `never-${name.replace(/\W+/g, "-")}`);
      const env: Record<string, string> = name === "missing ids" ? { HF_TOKEN: "hf_cli" } : {};
      expectOneLineError(await cli(["data", "pull", ...args, "--out", out, "--mirror", mirror()], env), message);
      expect(existsSync(out)).toBe(false);
    },
    30_000,
  );

  it("Ctrl-C during a download stops with exit 130 and leaves nothing behind", async () => {
    const hang = await startFixtureServer({
      root: join(root, "tests/fixtures/data-pull/mirror"),
      files: {
        "/datasets/LiveMathematicianBench/LiveMathematicianBench/resolve/b72450f6ce96c26158d64d945a5d31ef7727be41/data/202512/qa_202512_final.json":
          { hang: true },
      },
    });
    const parent = join(tmp, "sigint");
    try {
      const base: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/cli.ts",
          "data",
          "pull",
          "livemath",
          "--out",
          join(parent, "lm"),
          "--mirror",
          hang.url,
        ],
        { cwd: root, env: base },
      );
      let stderr = "";
      let sent = false;
      const code = await new Promise<number | null>((resolve) => {
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
          if (!sent && stderr.includes("qa_202511_final.json: ")) {
            sent = true;
            setTimeout(() => child.kill("SIGINT"), 200);
          }
        });
        child.on("close", (c) => resolve(c));
      });
      expect(code, stderr).toBe(130);
      expect(stderr).toContain("interrupted: nothing was written");
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      await hang.close();
    }
  }, 30_000);

  it("list names every benchmark with its sources and target folder", async () => {
    const r = await cli(["data", "list"]);
    expect(r.code).toBe(0);
    for (const b of ["searchqa", "livemath", "officeqa", "docvqa", "spreadsheetbench", "alfworld"])
      expect(r.stdout).toMatch(new RegExp(`^${b}: `, "m"));
    expect(r.stdout).toContain("writes    data/docvqa/splits");
    expect(r.stdout).toContain("https://huggingface.co/datasets/databricks/officeqa/resolve/main/officeqa_full.csv");
  }, 30_000);
});
