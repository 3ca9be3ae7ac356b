/**
 * bench:ui's processes and waits: the dashboard (`next start`) and a worker on the bench's database and
 * Redis, each ready before anything is measured, and the browser's busy time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { CDPSession } from "@playwright/test";

export async function waitHttp(url: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** `next start` on the given port; resolves once it answers. */
export async function startDashboard(port: number, env: NodeJS.ProcessEnv, procs: ChildProcess[]): Promise<string> {
  procs.push(
    spawn("./node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: "ignore" }),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitHttp(`${base}/api/backends`);
  return base;
}

/**
 * A worker (`worker/index.ts` under tsx); resolves once it logs "ready". Until then tsx is compiling the
 * worker's modules on one of the two cores: a bench that measured meanwhile (the run page is measured
 * first) counted that compile in the page's figures.
 */
export function startWorker(env: NodeJS.ProcessEnv, procs: ChildProcess[], ms = 120_000): Promise<void> {
  const proc = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  procs.push(proc);
  let log = "";
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker was not ready after ${ms / 1000} s:\n${log}`)), ms);
    proc.stdout!.on("data", (d: Buffer) => {
      log += d.toString();
      if (log.includes(" ready (")) {
        clearTimeout(timer);
        proc.stdout!.resume();
        resolve();
      }
    });
    proc.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (${code}) before it was ready:\n${log}`));
    });
  });
}

/**
 * The browser's main-thread busy time (Chromium's TaskDuration) in ms. Wall times on a shared machine
 * include waiting for a core; busy time is the page's own work, so both are printed.
 */
export async function busyMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: Array<{ name: string; value: number }> };
  return (metrics.find((m) => m.name === "TaskDuration")?.value ?? 0) * 1000;
}
