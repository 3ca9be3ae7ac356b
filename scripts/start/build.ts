/**
 * Builds the dashboard when it has never been built or its sources changed since the last build (a
 * fingerprint of file paths, sizes and modification times), so `npm start` works on a fresh clone.
 */
import { spawn } from "node:child_process";
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

/** What `next build` is doing, from one line of its output; null for lines that mark no new stage. */
export function buildStage(line: string): string | null {
  // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
  const l = line.replace(/\x1b\[[0-9;]*m/g, "").trim();
  const pages = /Generating static pages(?: using \d+ workers)? \((\d+)\/(\d+)\)/.exec(l);
  if (pages) return `generating pages ${pages[1]}/${pages[2]}`;
  if (/Creating an optimized production build/.test(l)) return "compiling";
  if (/Compiled successfully|Compiled with warnings/.test(l)) return "compiled";
  if (/Linting and checking validity of types|Running TypeScript/.test(l)) return "checking types";
  if (/Collecting page data/.test(l)) return "collecting page data";
  if (/Finalizing page optimization/.test(l)) return "finalizing";
  return null;
}

/** The expected build time: the last build's on this machine, else a range for a small one. */
function expectedTime(): string {
  try {
    const last = JSON.parse(readFileSync(STAMP, "utf8")) as { seconds?: number };
    if (typeof last.seconds === "number")
      return `about ${Math.max(1, Math.round(last.seconds / 60))} min, as last time`;
  } catch {
    // never built here
  }
  return "1–5 min depending on the machine";
}

export async function ensureBuild(say: (m: string) => void): Promise<void> {
  const fp = sourceFingerprint();
  const built =
    existsSync(".next/BUILD_ID") && existsSync(STAMP) && JSON.parse(readFileSync(STAMP, "utf8")).fingerprint === fp;
  if (built) return;
  say(`building the dashboard (first start or changed sources; ${expectedTime()})…`);
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn("./node_modules/.bin/next", ["build"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    let output = "";
    let pending = "";
    let last = "";
    const onData = (d: Buffer) => {
      output += d.toString();
      pending += d.toString();
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const stage = buildStage(line);
        if (stage && stage !== last) say(`build: ${stage} (${elapsed()})`);
        if (stage) last = stage;
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
  });
  if (code !== 0) throw new Error(`next build failed:\n${output}`);
  const seconds = Math.round((Date.now() - started) / 1000);
  say(`dashboard built in ${elapsed()}`);
  writeFileSync(STAMP, JSON.stringify({ fingerprint: fp, at: new Date().toISOString(), seconds }));
}

// `node --import tsx scripts/start/build.ts`: build now (npm test does this before Playwright starts the
// dashboard, so a slow build on a busy machine does not count against the web server's start-up timeout).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureBuild((m) => process.stdout.write(`[skillopt] ${m}\n`)).catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}
