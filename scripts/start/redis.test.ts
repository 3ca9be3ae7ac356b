import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureRedis, freePort, pingRedis } from "./redis";

const dir = mkdtempSync(join(tmpdir(), "skillopt-redis-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const realRedis = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();

describe("ensureRedis", () => {
  it("starts a private redis-server when nothing answers and REDIS_URL was not set, and stops it", async () => {
    const port = await freePort();
    const lines: string[] = [];
    const h = await ensureRedis(`redis://127.0.0.1:${port}`, { explicit: false, say: (m) => lines.push(m) });
    const own = Number(new URL(h.url).port);
    expect(own).not.toBe(port);
    expect(await pingRedis("127.0.0.1", own)).toBe(true);
    expect(lines.join("\n")).toMatch(/started a private redis-server/);
    // Its own process group, so a Ctrl-C in the terminal does not take Redis down before the worker stopped.
    const pgrp = Number(
      readFileSync(`/proc/${h.pid}/stat`, "utf8")
        .replace(/^.*\) /, "")
        .split(" ")[2],
    );
    expect(pgrp).toBe(h.pid);
    await h.stop();
    expect(await pingRedis("127.0.0.1", own)).toBe(false);
  });

  it("an explicit REDIS_URL that does not answer is an error naming it", async () => {
    const port = await freePort();
    await expect(ensureRedis(`redis://127.0.0.1:${port}`, { explicit: true, say: () => {} })).rejects.toThrow(
      `REDIS_URL=redis://127.0.0.1:${port} does not answer`,
    );
  });

  it("without redis-server it installs the package (when allowed), then starts the private server", async () => {
    const port = await freePort();
    const bin = join(dir, "redis-server");
    const lines: string[] = [];
    let installs = 0;
    const h = await ensureRedis(`redis://127.0.0.1:${port}`, {
      explicit: false,
      say: (m) => lines.push(m),
      bin,
      installServer: async (say) => {
        installs++;
        say("redis: running: apt-get install -y redis-server");
        symlinkSync(realRedis, bin); // what apt-get would have put in place
        return { ok: true, installed: ["redis-server"] };
      },
    });
    expect(installs).toBe(1);
    expect(await pingRedis("127.0.0.1", Number(new URL(h.url).port))).toBe(true);
    expect(lines).toEqual([
      "redis: running: apt-get install -y redis-server",
      expect.stringMatching(/started a private redis-server/),
    ]);
    await h.stop();
  });

  it("when it may not install redis-server it says why and the one command to run", async () => {
    const port = await freePort();
    const attempt = ensureRedis(`redis://127.0.0.1:${port}`, {
      explicit: false,
      say: () => {},
      bin: join(dir, "not-installed"),
      installServer: async () => ({
        ok: false,
        missing: ["redis-server"],
        reason: "not running as root, and sudo asks for a password",
        command: "sudo apt-get install -y redis-server",
        message: "",
      }),
    });
    await expect(attempt).rejects.toThrow(
      `no Redis answers at 127.0.0.1:${port} and redis-server is not installed: not running as root, and sudo asks for a password. Install it with: sudo apt-get install -y redis-server, or set REDIS_URL=redis://host:port`,
    );
  });

  it("with redis-server present it never asks for an install", async () => {
    const port = await freePort();
    const h = await ensureRedis(`redis://127.0.0.1:${port}`, {
      explicit: false,
      say: () => {},
      installServer: () => {
        throw new Error("must not be called");
      },
    });
    await h.stop();
  });
});
