/**
 * Builds the dashboard when it has never been built or its sources changed since the last build (a
 * fingerprint of file paths, sizes and modification times), so `npm start` works on a fresh clone.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const SOURCES = [
  "app",
  "components",
  "lib",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
  "proxy.ts",
];
const STAMP = ".next/skillopt-build.json";

function files(p: string): string[] {
  if (!existsSync(p)) return [];
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p, { withFileTypes: true }).flatMap((e) =>
    e.name === "node_modules" ? [] : files(join(p, e.name)),
  );
}

export function sourceFingerprint(): string {
  const h = createHash("sha256");
  for (const f of SOURCES.flatMap(files).sort()) {
    const s = statSync(f);
    h.update(`${f}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return h.digest("hex").slice(0, 16);
}

export async function ensureBuild(say: (m: string) => void): Promise<void> {
  const fp = sourceFingerprint();
  const built =
    existsSync(".next/BUILD_ID") && existsSync(STAMP) && JSON.parse(readFileSync(STAMP, "utf8")).fingerprint === fp;
  if (built) return;
  say("building the dashboard (first start or changed sources; about 30 s)…");
  const r = spawnSync("./node_modules/.bin/next", ["build"], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed:\n${r.stdout}\n${r.stderr}`);
  writeFileSync(STAMP, JSON.stringify({ fingerprint: fp, at: new Date().toISOString() }));
}

// `node --import tsx scripts/start/build.ts`: build now (npm test does this before Playwright starts the
// dashboard, so a slow build on a busy machine does not count against the web server's start-up timeout).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureBuild((m) => process.stdout.write(`[skillopt] ${m}\n`)).catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}
