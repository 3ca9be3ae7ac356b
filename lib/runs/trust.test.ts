import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { CONFIG_KEY_TRUST, CONFINED_KINDS, type Trust } from "../contracts/config-trust";
import type { Item } from "../engine/types";
import { createEnvironment } from "../envs/registry";
import { buildRunConfig, fakeClient } from "../envs/test-helpers";
import { prepareRun } from "./prepare";
import { pathGuardFor } from "./trust";

// Every fixture exists twice: in `outside/` (no allowed root) and in `extra/`, which the operator allows
// through SKILLOPT_DATA_ROOTS. The same read must be refused from the first for a dashboard run, allowed
// from the second, and allowed from both for the CLI.
const tmp = mkdtempSync(join(tmpdir(), "skillopt-trust-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const root = process.cwd();
const VARS = { SKILLOPT_DATA_ROOTS: join(tmp, "extra") };

for (const where of ["outside", "extra"]) {
  const dir = join(tmp, where);
  mkdirSync(join(dir, "docs"), { recursive: true });
  mkdirSync(join(dir, "ssb"), { recursive: true });
  writeFileSync(join(dir, "skill.md"), "# Skill\n- answer briefly\n");
  copyFileSync("configs/custom/example.jsonl", join(dir, "data.jsonl"));
  cpSync("lib/envs/searchqa/sample", join(dir, "split"), { recursive: true });
  writeFileSync(join(dir, "docs", "report.md"), "Revenue was 12.\n");
}

const sample = (preset: string, overrides: string[]) =>
  loadRunConfig(`configs/${preset}/sample.yaml`, overrides).config;

/** How each confined key is read: the call a run makes with it. */
const READS: Record<string, (value: string, trust: Trust) => unknown> = {
  "env.skill_init": (v, trust) =>
    prepareRun({ config: sample("searchqa", [`env.skill_init=${v}`]), rootDir: root, env: VARS, trust }),
  "env.data_path": (v, trust) =>
    prepareRun({ config: sample("custom", [`env.data_path=${v}/data.jsonl`]), rootDir: root, env: VARS, trust }),
  "env.split_dir": (v, trust) =>
    prepareRun({
      config: sample("searchqa", ["env.split_mode=split_dir", `env.split_dir=${v}/split`]),
      rootDir: root,
      env: VARS,
      trust,
    }),
  "env.data_root": (v, trust) =>
    createEnvironment(sample("spreadsheetbench", ["env.split_mode=split_dir", `env.data_root=${v}/ssb`]), undefined, {
      rootDir: root,
      vars: VARS,
      paths: pathGuardFor(trust, root, VARS),
    }),
  "env.data_dirs": (v, trust) =>
    createEnvironment(sample("officeqa", ["env.split_mode=split_dir", `env.data_dirs=[${v}/docs]`]), undefined, {
      rootDir: root,
      vars: VARS,
      paths: pathGuardFor(trust, root, VARS),
    }),
};

/** The value for a key in `where`: the skill file itself, or the fixture folder its reader appends to. */
const valueIn = (key: string, where: string) =>
  key === "env.skill_init" ? join(tmp, where, "skill.md") : join(tmp, where);

function refusalOf(fn: () => unknown): { field?: string; message: string; code?: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err as { field?: string; message: string; code?: string };
  }
}

describe("files a config names, by trust", () => {
  it("has a reader for every key marked as a file or folder", () => {
    const confined = Object.entries(CONFIG_KEY_TRUST)
      .filter(([, k]) => CONFINED_KINDS.has(k))
      .map(([k]) => k)
      .sort();
    expect(Object.keys(READS).sort()).toEqual(confined);
  });

  it.each(Object.keys(READS))(
    "%s: outside the roots → refused naming the key; in SKILLOPT_DATA_ROOTS → read; CLI → read",
    (key) => {
      const read = READS[key]!;
      const err = refusalOf(() => read(valueIn(key, "outside"), "request"));
      expect(err).toMatchObject({ code: "INVALID_REQUEST", field: key });
      expect(err!.message).toMatch(
        new RegExp(
          `^${key.replace(".", "\\.")}: .*outside.* is outside the folders the dashboard may read \\(configs/, data/, \\.skillopt/uploads/`,
        ),
      );
      expect(refusalOf(() => read(valueIn(key, "extra"), "request"))).toBeNull();
      expect(refusalOf(() => read(valueIn(key, "outside"), "local"))).toBeNull();
    },
  );

  it("refuses the files of finding 1 and never shows their contents", () => {
    for (const raw of ["/proc/self/environ", "/etc/passwd", "../../../../etc/passwd"]) {
      const err = refusalOf(() => READS["env.skill_init"]!(raw, "request"));
      expect(err).toMatchObject({
        field: "env.skill_init",
        message: expect.stringContaining(`${raw} is outside the folders`),
      });
      expect(err!.message).not.toMatch(/root:|PATH=/);
    }
  });

  it("reads the project's own files: presets, built-in samples and seed skills, uploads", () => {
    const run = prepareRun({ config: sample("custom", []), rootDir: root, env: {}, trust: "request" });
    expect(run.splits.train.length).toBeGreaterThan(0);
    expect(run.initialSkill).toContain("#");
    for (const preset of ["docvqa", "officeqa", "spreadsheetbench", "alfworld", "livemath", "searchqa"]) {
      expect(
        refusalOf(() => prepareRun({ config: sample(preset, []), rootDir: root, env: {}, trust: "request" })),
        preset,
      ).toBeNull();
    }
  });

  it("refuses a symlink inside an allowed root that leads out, also when it is swapped after a first check", () => {
    const link = join(tmp, "extra", "swap.jsonl");
    symlinkSync(join(tmp, "extra", "data.jsonl"), link);
    const read = () =>
      prepareRun({ config: sample("custom", [`env.data_path=${link}`]), rootDir: root, env: VARS, trust: "request" });
    expect(refusalOf(read)).toBeNull();
    unlinkSync(link);
    symlinkSync(join(tmp, "outside", "data.jsonl"), link);
    expect(refusalOf(read)).toMatchObject({
      field: "env.data_path",
      message: expect.stringContaining("is outside the folders"),
    });
  });
});

describe("files named by the items (uploads are anyone's content)", () => {
  const request = { rootDir: root, vars: VARS, paths: pathGuardFor("request", root, VARS) };
  const rollout = (env: ReturnType<typeof createEnvironment>, item: Item) =>
    env.rollout({
      item,
      skill: "# Skill",
      client: fakeClient(() => "<answer>x</answer>"),
      phase: "train",
      seed: 1,
      useEvalFeedback: false,
    });

  it("DocVQA: an image path outside the roots is an error item, never read; the sample's own images are read", async () => {
    const env = createEnvironment(buildRunConfig({ name: "docvqa" }), undefined, request);
    const base = { id: "1", question: "q?", answers: ["a"], answer: "a", task_type: "form" };
    const out = await rollout(env, {
      ...base,
      image_path: "/etc/passwd",
      image_paths: ["/etc/passwd"],
      source_dir: "/",
    });
    expect(out).toMatchObject({
      status: "error",
      failReason: expect.stringContaining("document image '/etc/passwd' is outside the folders"),
    });
    const ok = await rollout(env, { ...base, image_path: "lib/envs/docvqa/sample/images/doc-01-invoice.png" });
    expect(ok.status).toBe("ok");
  });

  it("SpreadsheetBench: a task folder outside the roots is an error item", async () => {
    const env = createEnvironment(
      buildRunConfig({ name: "spreadsheetbench", split_mode: "split_dir", data_root: join(tmp, "extra", "ssb") }),
      undefined,
      request,
    );
    const item = {
      id: "t1",
      instruction: "fill",
      instruction_type: "Cell-Level Manipulation",
      answer_position: "A1",
      answer_sheet: "",
      spreadsheet_path: "../../outside/ssb",
    };
    expect(await rollout(env, item)).toMatchObject({
      status: "error",
      failReason: expect.stringContaining("task folder '../../outside/ssb' is outside the folders"),
    });
  });

  it("ALFWorld: a game file outside the roots is an error item, taken literally (no $VAR expansion)", async () => {
    const vars = { ...VARS, ALFWORLD_DATA: join(tmp, "extra"), SECRET: "sk-live-1" };
    const env = createEnvironment(buildRunConfig({ name: "alfworld", simulator: "alfworld" }), undefined, {
      rootDir: root,
      vars,
      paths: pathGuardFor("request", root, vars),
    });
    const item = (gamefile: string) => ({ id: "g", task_type: "pick_and_place_simple", gamefile });
    expect(await rollout(env, item("/etc/passwd"))).toMatchObject({
      status: "error",
      failReason: expect.stringContaining("game file '/etc/passwd' is outside the folders"),
    });
    const literal = await rollout(env, item("$SECRET/game.tw-pddl"));
    expect(literal.failReason).toContain("game file not found");
    expect(literal.failReason).not.toContain("sk-live-1");
  });
});

describe("what a run writes", () => {
  const project = join(tmp, "project");
  mkdirSync(join(project, "data"), { recursive: true });
  copyFileSync("configs/custom/example.jsonl", join(project, "data", "mine.jsonl"));
  const tree = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? [`${e.name}/`, ...tree(join(dir, e.name)).map((p) => `${e.name}/${p}`)] : [e.name],
    );
  const config = () =>
    sample("custom", ["env.data_path=data/mine.jsonl", `env.split_output_dir=${join(tmp, "chosen")}`]);

  it("preparing writes nothing; a dashboard run's split files go under .skillopt/splits/ whatever the config says", () => {
    const run = prepareRun({ config: config(), rootDir: project, skillText: "# s", env: {}, trust: "request" });
    expect(tree(project)).toEqual(["data/", "data/mine.jsonl"]);
    const dir = run.materialiseSplits()!;
    expect(dir).toMatch(new RegExp(`^${project}/\\.skillopt/splits/custom_2-1-1_seed42_[0-9a-f]{12}$`));
    expect(tree(dir).sort()).toEqual([
      "split_manifest.json",
      "test/",
      "test/items.json",
      "train/",
      "train/items.json",
      "val/",
      "val/items.json",
    ]);
    expect(existsSync(join(tmp, "chosen"))).toBe(false);
  });

  it("the CLI writes where its config says, and only when asked", () => {
    const run = prepareRun({ config: config(), rootDir: project, skillText: "# s", env: {}, trust: "local" });
    expect(existsSync(join(tmp, "chosen"))).toBe(false);
    expect(run.materialiseSplits()).toBe(join(tmp, "chosen"));
    expect(existsSync(join(tmp, "chosen", "split_manifest.json"))).toBe(true);
  });
});
