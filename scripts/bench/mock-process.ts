/**
 * The mock LLM server as its own process for the benchmarks (as in real use, the model is not in the
 * engine's process), fed the benchmark's scaled items so the sim recognises them.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Item } from "../../lib/engine";

export interface MockProcess {
  url: string;
  close(): Promise<void>;
}

/** Starts `scripts/mock-llm-server.ts` on a free port with `flags`; resolves once it listens. */
export async function startMockProcess(
  dir: string,
  rules: unknown[],
  items: Item[],
  flags: string[],
): Promise<MockProcess> {
  const file = join(dir, "knowledge.json");
  writeFileSync(file, JSON.stringify({ rules, items }));
  const args = ["--port", "0", "--knowledge", file, "--require-key", "bench-key", ...flags];
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/mock-llm-server.ts", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`mock server exited (${code})`)));
  });
  return { url, close: () => new Promise((r) => (child.once("exit", () => r()), child.kill("SIGTERM"))) };
}
