// Private services for `npm test`: a Redis and a PostgreSQL cluster on spare ports in a temp folder, so the
// suites never touch a developer's own databases. The packages they come from are ensured by scripts/test.mjs
// (lib/system).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProbe } from "../lib/system/index.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const pgBin = () => createProbe().pgBinDir();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function startServices() {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-svc-"));
  chmodSync(dir, 0o777);
  const redisPort = await freePort();
  const redis = spawn(
    "redis-server",
    ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
  const bin = pgBin();
  const pgPort = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (exe, args) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", exe, ...args], { stdio: "pipe" })
      : execFileSync(exe, args, { stdio: "pipe" });
  const data = join(dir, "pg");
  run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  run(join(bin, "pg_ctl"), [
    "-D",
    data,
    "-l",
    join(dir, "pg.log"),
    "-w",
    "-o",
    `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
    "start",
  ]);
  for (let i = 0; i < 50; i++) {
    if (spawnSync("redis-cli", ["-p", String(redisPort), "ping"], { encoding: "utf8" }).stdout?.includes("PONG")) break;
    await sleep(100);
  }
  return {
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    pgUrl: `postgresql://postgres@127.0.0.1:${pgPort}/postgres`,
    async stop() {
      redis.kill("SIGTERM");
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
