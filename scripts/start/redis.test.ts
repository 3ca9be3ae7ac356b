import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ensureRedis, freePort, pingRedis } from "./redis";

describe("ensureRedis", () => {
  it("starts a private redis-server when nothing answers and REDIS_URL was not set, and stops it", async () => {
    const port = await freePort();
    const lines: string[] = [];
    const h = await ensureRedis(`redis://127.0.0.1:${port}`, false, (m) => lines.push(m));
    const own = Number(new URL(h.url).port);
    expect(own).not.toBe(port);
    expect(await pingRedis("127.0.0.1", own)).toBe(true);
    expect(lines.join("\n")).toMatch(/started a private redis-server/);
    // Its own process group, so a Ctrl-C in the terminal does not take Redis down before the worker stopped.
    const pgrp = Number(readFileSync(`/proc/${h.pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[2]);
    expect(pgrp).toBe(h.pid);
    await h.stop();
    expect(await pingRedis("127.0.0.1", own)).toBe(false);
  });

  it("an explicit REDIS_URL that does not answer is an error naming it", async () => {
    const port = await freePort();
    await expect(ensureRedis(`redis://127.0.0.1:${port}`, true, () => {})).rejects.toThrow(`REDIS_URL=redis://127.0.0.1:${port} does not answer`);
  });

  it("without redis-server it says how to install it", async () => {
    const port = await freePort();
    await expect(ensureRedis(`redis://127.0.0.1:${port}`, false, () => {}, "redis-server-not-installed")).rejects.toThrow(/apt-get install redis-server/);
  });
});
