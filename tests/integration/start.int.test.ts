/**
 * `npm start` / `npm run dev` (scripts/start.ts) under Ctrl-C: the terminal sends SIGINT to the whole
 * process group; every process it started (the Next server and its helpers, the worker) must be gone
 * within seconds, even while the worker trains a run on the simulated model.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/start/redis";

const dir = mkdtempSync(join(tmpdir(), "skillopt-start-"));
let start: ChildProcess | null = null;
// `next dev` adds its own entries to tsconfig.json's include list when it starts; a test leaves no trace.
const tsconfig = readFileSync("tsconfig.json", "utf8");

/** pid → [parent pid, state] for every process, from /proc. */
function processTable(): Map<number, { ppid: number; state: string }> {
  const out = new Map<number, { ppid: number; state: string }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const [state, ppid] = readFileSync(`/proc/${name}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ");
      out.set(Number(name), { ppid: Number(ppid), state: state! });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

function descendants(root: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, p] of table) {
      if (p.ppid === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

const alive = (pids: number[]) => {
  const table = processTable();
  return pids.filter((p) => table.has(p) && table.get(p)!.state !== "Z");
};

afterAll(() => {
  if (start?.pid && start.exitCode === null) process.kill(-start.pid, "SIGKILL");
  if (readFileSync("tsconfig.json", "utf8") !== tsconfig) writeFileSync("tsconfig.json", tsconfig);
  rmSync(dir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("one Ctrl-C stops the dashboard, the worker and every helper within seconds, mid-run", async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: `file:${join(dir, "start.db")}`,
      REDIS_URL: process.env.REDIS_URL!,
      WORKER_ID: "start-test",
    };
    // Detached = its own process group, like a shell job; a signal to the group is what Ctrl-C does.
    start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--dev", "--port", String(port)], {
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    start.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    start.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => start!.once("exit", (code) => r(code)));
    const end = Date.now() + 180_000;
    while (!(/ready \(concurrency/.test(out) && /Ready in/.test(out))) {
      if (start.exitCode !== null || Date.now() > end) throw new Error(`npm start did not come up:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Keep the worker busy with a long simulated run, the case where it used to ignore signals.
    const res = await fetch(`http://127.0.0.1:${port}/api/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 200 } }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    for (;;) {
      const run = (await (await fetch(`http://127.0.0.1:${port}/api/runs/${id}`)).json()) as { stepsDone?: number };
      if ((run.stepsDone ?? 0) >= 1) break;
      if (Date.now() > end) throw new Error(`the run never got going:\n${out}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const family = descendants(start.pid!);
    expect(family.length).toBeGreaterThanOrEqual(2); // next and the worker at least

    const t0 = Date.now();
    process.kill(-start.pid!, "SIGINT");
    const code = await Promise.race([exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 15_000))]);
    while (alive(family).length > 0 && Date.now() - t0 < 15_000) await new Promise((r) => setTimeout(r, 100));
    const took = Date.now() - t0;
    console.info(`Ctrl-C → npm start and its ${family.length} processes gone in ${took} ms`);
    expect(code, `npm start still running 15 s after Ctrl-C:\n${out.slice(-3000)}`).toBe(0);
    expect(alive(family), `left behind after Ctrl-C:\n${out.slice(-3000)}`).toEqual([]);
    expect(took).toBeLessThan(15_000);
  }, 240_000);
});
