/**
 * `npm run lint` runs Prettier, ESLint and knip with the project's own configuration. Each is shown here to
 * catch what it is there for: an unformatted file, a floating promise, an unused export. If a config change
 * stopped one of them from seeing its planted finding, this fails.
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
});
