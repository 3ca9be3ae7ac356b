/**
 * `npm start` supervises its worker (issue 13.9): SIGKILL the worker child and a new one comes up by
 * itself, with a log line saying so, while the dashboard keeps answering; Ctrl-C still ends everything.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/start/redis";

const dir = mkdtempSync(join(tmpdir(), "skillopt-supervise-"));
let start: ChildProcess | null = null;
const tsconfig = readFileSync("tsconfig.json", "utf8");

afterAll(() => {
  if (start?.pid && start.exitCode === null) process.kill(-start.pid, "SIGKILL");
  if (readFileSync("tsconfig.json", "utf8") !== tsconfig) writeFileSync("tsconfig.json", tsconfig);
  rmSync(dir, { recursive: true, force: true });
});

/** Pids of the worker processes (`worker/index.ts`) below `root`. */
function workerPids(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parent.set(
        Number(name),
        Number(
          readFileSync(`/proc/${name}/stat`, "utf8")
            .replace(/^.*\) /, "")
            .split(" ")[1],
        ),
      );
    } catch {
      // exited while we looked
    }
  }
  const below = (pid: number): boolean => pid === root || (parent.has(pid) && pid !== 1 && below(parent.get(pid)!));
  return [...parent.keys()].filter((pid) => {
    if (pid === root || !below(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("worker/index.ts");
    } catch {
      return false;
    }
  });
}

const until = async (ok: () => boolean | Promise<boolean>, ms: number, what: string, log: () => string) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${log().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe("npm start supervises its worker", () => {
  it("a killed worker is restarted and logged; the dashboard keeps serving; Ctrl-C still stops all", async () => {
    const port = await freePort();
    start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--dev", "--port", String(port)], {
      env: { ...process.env, DATABASE_URL: `file:${join(dir, "start.db")}`, WORKER_ID: "supervised" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    start.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    start.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const log = () => out;
    const exited = new Promise<number | null>((r) => start!.once("exit", (code) => r(code)));
    await until(() => /ready \(concurrency/.test(out) && /Ready in/.test(out), 180_000, "npm start", log);
    const api = async () => (await fetch(`http://127.0.0.1:${port}/api/backends`)).status;
    expect(await api()).toBe(200);

    const [first] = workerPids(start.pid!);
    expect(first).toBeDefined();
    const readyBefore = out.match(/ready \(concurrency/g)!.length;
    process.kill(first!, "SIGKILL");
    await until(
      () => /worker exited \(signal SIGKILL\) while the dashboard runs; restarting it in 1 s/.test(out),
      20_000,
      "the restart line",
      log,
    );
    // The dashboard answers while the worker is down and after it is back.
    expect(await api()).toBe(200);
    await until(() => (out.match(/ready \(concurrency/g)?.length ?? 0) > readyBefore, 60_000, "the new worker", log);
    const now = workerPids(start.pid!);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(first);
    expect(await api()).toBe(200);

    process.kill(-start.pid!, "SIGINT");
    const code = await Promise.race([exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 15_000))]);
    expect(code, out.slice(-3000)).toBe(0);
  }, 300_000);
});
