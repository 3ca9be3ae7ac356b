/**
 * `npm run lint` runs Prettier, ESLint, knip and dependency-cruiser with the project's own configuration. Each
 * is shown here to catch what it is there for: an unformatted file, a floating promise, an unused export, a
 * route that reaches the engine runtime (directly or through any layer, lib/services included). If a config change stopped one of them from seeing
 * its planted finding, this fails.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const cleanup: string[] = [];
afterAll(() => cleanup.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("npm run lint's tools, with the project's configuration", () => {
  it("Prettier: an unformatted file fails the check, its formatted form passes", async () => {
    const file = path.join(root, "lib", "planted.ts");
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    const messy = "export const  x = {a:1,\n b:2}\n";
    expect(await prettier.check(messy, options)).toBe(false);
    expect(await prettier.check(await prettier.format(messy, options), options)).toBe(true);
    expect((await prettier.getFileInfo(file, { ignorePath: path.join(root, ".prettierignore") })).ignored).toBe(false);
  });

  it("ESLint: a floating promise and an unused import are errors (type-aware rules reach project files)", async () => {
    // The type-aware rules need a file the TypeScript project includes, so the probe is written inside the tree.
    const dir = mkdtempSync(path.join(root, "tests", "lint-probe-"));
    cleanup.push(dir);
    const file = path.join(dir, "planted.ts");
    writeFileSync(
      file,
      [
        'import { readFileSync } from "node:fs";',
        "export async function load(): Promise<number> {",
        "  return 1;",
        "}",
        "export function start(): void {",
        "  load();",
        "}",
        "",
      ].join("\n"),
    );
    const results = await new ESLint({ cwd: root }).lintFiles([file]);
    const rules = results.flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(rules).toContain("@typescript-eslint/no-floating-promises");
    expect(rules).toContain("@typescript-eslint/no-unused-vars");
  }, 240_000);

  it("knip: an export nothing imports is reported and fails the run", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "knip-probe-"));
    cleanup.push(dir);
    copyFileSync(path.join(root, "knip.json"), path.join(dir, "knip.json"));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "probe", private: true, type: "module" }));
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
    mkdirSync(path.join(dir, "scripts"));
    // An entry (scripts/*.ts, as in the project) that uses one of the module's two exports.
    writeFileSync(path.join(dir, "scripts", "main.ts"), 'import { used } from "../lib/mod";\nconsole.log(used());\n');
    mkdirSync(path.join(dir, "lib"));
    writeFileSync(
      path.join(dir, "lib", "mod.ts"),
      "export function used(): number {\n  return 1;\n}\nexport function plantedUnused(): number {\n  return 2;\n}\n",
    );
    const knip = path.join(root, "node_modules", "knip", "bin", "knip.js");
    const r = spawnSync(process.execPath, [knip, "--no-progress", "--directory", dir], { encoding: "utf8" });
    expect(r.stdout).toContain("plantedUnused");
    expect(r.stdout).not.toMatch(/\bused\b.*lib\/mod\.ts/);
    expect(r.status).not.toBe(0);
  }, 120_000);

  describe("dependency-cruiser: nothing the web process loads reaches the engine runtime, model clients or environments", () => {
    /** A small tree with the project's layout and the project's rules; returns depcruise's exit code and report. */
    function cruise(files: Record<string, string>) {
      const dir = mkdtempSync(path.join(tmpdir(), "depcruise-probe-"));
      cleanup.push(dir);
      writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
      const bin = path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
      const config = path.join(root, ".dependency-cruiser.cjs");
      const r = spawnSync(process.execPath, [bin, "--config", config, "--output-type", "err-long", "app", "lib"], {
        cwd: dir,
        encoding: "utf8",
      });
      return { status: r.status, out: `${r.stdout}${r.stderr}` };
    }
    const engine = { "lib/engine/trainer.ts": "export function runTraining(): number {\n  return 1;\n}\n" };
    const route = (target: string) => ({
      "app/api/probe/route.ts": `import { runTraining } from "${target}";\nexport const GET = () => runTraining();\n`,
    });

    it("a planted app → lib/services → engine runtime chain fails (the service layer is fenced too)", () => {
      const r = cruise({
        ...engine,
        ...route("../../../lib/services/probe"),
        "lib/services/probe.ts": 'export { runTraining } from "../engine/trainer";\n',
      });
      expect(r.out).toMatch(/web-never-reaches-runtime: app\/api\/probe\/route\.ts → lib\/engine\/trainer\.ts/);
      expect(r.out).toMatch(/web-layers-never-reach-runtime: lib\/services\/probe\.ts → lib\/engine\/trainer\.ts/);
      expect(r.status).not.toBe(0);
    }, 120_000);

    it("a planted app → lib/services → backend registry (model clients) chain fails", () => {
      const r = cruise({
        "lib/backends/registry.ts": "export function createModelClient(): number {\n  return 1;\n}\n",
        "app/api/probe/route.ts":
          'import { createModelClient } from "../../../lib/services/probe";\nexport const GET = () => createModelClient();\n',
        "lib/services/probe.ts": 'export { createModelClient } from "../backends/registry";\n',
      });
      expect(r.out).toMatch(/web-never-reaches-runtime: app\/api\/probe\/route\.ts → lib\/backends\/registry\.ts/);
      expect(r.status).not.toBe(0);
    }, 120_000);

    it("app → lib/services → contracts and the declared web-safe parts passes", () => {
      const r = cruise({
        "lib/contracts/probe.ts": "export const LIMIT = 3;\n",
        "lib/envs/searchqa/descriptor.ts":
          'import { LIMIT } from "../../contracts/probe";\nexport const steps = LIMIT;\n',
        "lib/engine/run-plan.ts": "export function planRun(): number {\n  return 2;\n}\n",
        "app/api/probe/route.ts":
          'import { total } from "../../../lib/services/probe";\nexport const GET = () => total();\n',
        "lib/services/probe.ts":
          'import { LIMIT } from "../contracts/probe";\nimport { steps } from "../envs/searchqa/descriptor";\nimport { planRun } from "../engine/run-plan";\nexport const total = () => LIMIT + steps + planRun();\n',
      });
      expect(r.out).toContain("no dependency violations found");
      expect(r.status).toBe(0);
    }, 120_000);

    it("a planted app → lib/db → engine runtime chain fails (reachability, not only direct imports)", () => {
      const r = cruise({
        ...engine,
        ...route("../../../lib/db/probe"),
        "lib/db/probe.ts": 'export { runTraining } from "../engine/trainer";\n',
      });
      expect(r.out).toMatch(/web-never-reaches-runtime: app\/api\/probe\/route\.ts → lib\/engine\/trainer\.ts/);
      expect(r.out).toMatch(/web-layers-never-reach-runtime: lib\/db\/probe\.ts → lib\/engine\/trainer\.ts/);
      expect(r.status).not.toBe(0);
    }, 120_000);

    it("a route importing the old shared layer (lib/runs) or the engine directly fails", () => {
      const r = cruise({
        ...engine,
        ...route("../../../lib/runs/probe"),
        "lib/runs/probe.ts": 'export { runTraining } from "../engine/trainer";\n',
      });
      expect(r.out).toMatch(/app-enters-through-services: app\/api\/probe\/route\.ts → lib\/runs\/probe\.ts/);
      expect(r.status).not.toBe(0);
      const direct = cruise({ ...engine, ...route("../../../lib/engine/trainer") });
      expect(direct.out).toMatch(/app-enters-through-services: app\/api\/probe\/route\.ts → lib\/engine\/trainer\.ts/);
      expect(direct.status).not.toBe(0);
    }, 120_000);
  });
});
