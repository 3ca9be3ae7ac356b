/**
 * A second dashboard for specs that need one started differently from the main web server (another
 * environment: a token, extension files): `npm start`'s script with `--no-worker` on a free port, reusing
 * the build the main web server made. `ready` says when it answers (default: `GET /api/backends` is 200).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../tests/helpers/processes";

export interface SecondDashboard {
  port: number;
  base: string;
  /** Everything it printed so far. */
  log(): string;
  /** SIGTERM, and wait for it to exit. */
  stop(): Promise<void>;
}

export async function startSecondDashboard(
  env: Record<string, string>,
  ready: (port: number) => Promise<boolean> = (port) =>
    fetch(`http://127.0.0.1:${port}/api/backends`).then(
      (r) => r.ok,
      () => false,
    ),
  timeoutMs = 150_000,
): Promise<SecondDashboard> {
  const port = await freePort();
  const server: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/start.ts", "--no-worker", "--port", String(port)],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  server.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await ready(port))) {
    if (server.exitCode !== null) throw new Error(`second dashboard exited (${server.exitCode}):\n${log}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`second dashboard did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { port, base: `http://127.0.0.1:${port}`, log: () => log, stop };
}
