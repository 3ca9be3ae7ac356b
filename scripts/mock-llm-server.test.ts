import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("scripts/mock-llm-server.ts", () => {
  it("prints its URL, answers, and stops cleanly on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/mock-llm-server.ts", "--port", "0", "--require-key", "k"],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.setEncoding("utf8");
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        const m = /mock LLM server listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited early (${code}): ${out}`)));
    });
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer k" } });
    expect(models.status).toBe(200);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(out).toMatch(/SIGTERM, stopping after 1 requests/);
  });

  it("exits 2 with the usage on a bad flag", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/mock-llm-server.ts", "--fault-500", "2"], {
      cwd: root,
    });
    let err = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => (err += c));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(err).toMatch(/probability/);
    expect(err).toMatch(/usage:/);
  });
});
