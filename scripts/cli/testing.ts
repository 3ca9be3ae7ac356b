/**
 * The `skillopt` CLI tests' sandbox: a temporary folder (with the dashboard database the CLI records its runs
 * in, never the developer's own .skillopt/skillopt.db), the CLI run as a child process, and files written
 * into the folder. Used by scripts/cli*.test.ts; call `cleanup` in afterAll.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function cliSandbox(prefix: string) {
  const root = join(import.meta.dirname, "../..");
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const dbUrl = `file:${join(tmp, "dashboard.db")}`;
  const cli = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, FORCE_COLOR: "0", DATABASE_URL: dbUrl, ...env },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const write = (name: string, text: string): string => {
    const p = join(tmp, name);
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  return { root, tmp, dbUrl, cli, write, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}
