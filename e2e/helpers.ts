/**
 * E2E fixtures: worker processes the tests can start, SIGKILL and restart; API helpers that seed runs
 * the way the dashboard does; and the database for byte-for-byte checks.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { createDb, type Db } from "../lib/db/client";

export const SHOTS = "test-results/screenshots";

export interface WorkerProc {
  proc: ChildProcess;
  ready: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Everything the worker printed (attached to a failing test's report). */
  log(): string;
}

/** A worker with short lock and stall intervals, so a killed worker's run is taken over within seconds. */
export function startWorker(id: string, extraEnv: Record<string, string> = {}): WorkerProc {
  const proc = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    env: {
      ...process.env,
      ...extraEnv,
      WORKER_ID: id,
      WORKER_LOCK_MS: "4000",
      WORKER_STALLED_INTERVAL_MS: "1500",
      WORKER_CONCURRENCY: "2",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout!.on("data", (d: Buffer) => {
      log += d.toString();
      if (log.includes(" ready (")) resolve();
    });
    proc.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    proc.once("exit", (code) => reject(new Error(`worker ${id} exited (${code}):\n${log}`)));
  });
  ready.catch(() => {});
  proc.on("exit", (code, signal) => (log += `\n[worker ${id} exited: code ${code}, signal ${signal}]\n`));
  return {
    proc,
    ready,
    log: () => log,
    kill: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill(signal);
      }),
  };
}

export function testDb(): Db {
  return createDb(process.env.DATABASE_URL!);
}

export async function createRunViaApi(
  request: APIRequestContext,
  overrides: Record<string, string | number | boolean>,
  name = `e2e ${Math.random().toString(36).slice(2, 8)}`,
): Promise<string> {
  const res = await request.post("/api/runs", { data: { preset: "searchqa/sample.yaml", overrides, name } });
  if (res.status() !== 201) throw new Error(`create run failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export async function waitForStatus(
  request: APIRequestContext,
  id: string,
  status: string,
  timeoutMs = 90_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = (await (await request.get(`/api/runs/${id}`)).json()) as { status: string };
    if (r.status === status) return;
    if (Date.now() > end) throw new Error(`run ${id} is ${r.status}, expected ${status}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${process.env.E2E_PROVIDER ?? "db"}-${name}.png`, fullPage: true });
}
