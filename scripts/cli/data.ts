/**
 * `skillopt data pull <benchmark> [--out DIR] [--mirror URL] [--force]` and `skillopt data list`:
 * download a benchmark's released split manifest and public data and materialise the `split_dir` its
 * preset reads. HF_TOKEN (gated datasets) and SKILLOPT_DATA_MIRROR come from the environment.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { AppError } from "../../lib/errors";
import {
  checkMirror,
  DATA_BENCHMARKS,
  manifestUrl,
  pullBenchmark,
  SOURCES,
  datasetFileUrl,
  datasetTreeUrl,
} from "../../lib/data";

export const DATA_USAGE = `usage:
  npm run skillopt -- data pull <benchmark> [--out DIR] [--mirror URL] [--force]
  npm run skillopt -- data list

benchmarks: ${DATA_BENCHMARKS.join(", ")}
  --out DIR     output folder (default: the preset's env.split_dir, e.g. data/searchqa_split)
  --mirror URL  fetch every file from URL instead of github/huggingface (or set SKILLOPT_DATA_MIRROR)
  --force       replace an existing output folder (only once the new one is complete)
  HF_TOKEN      Hugging Face access token, needed for gated datasets (officeqa)
`;

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * A progress reporter: a live line on a terminal; otherwise (logs, pipes) a line at each quarter of a
 * file of known size, every 64 MB of one of unknown size, and when it is complete.
 */
function progressReporter(stream: NodeJS.WriteStream) {
  let lastDraw = 0;
  const lastMark = new Map<string, number>();
  return (p: { url: string; received: number; total: number | null; done: boolean }) => {
    const amount = `${formatBytes(p.received)}${p.total !== null ? ` / ${formatBytes(p.total)}` : ""}`;
    const name = p.url.replace(/^https?:\/\/[^/]+/, "");
    if (stream.isTTY) {
      const now = Date.now();
      if (!p.done && now - lastDraw < 100) return;
      lastDraw = now;
      stream.write(`\r\x1b[2K  ${name}  ${amount}${p.done ? "\n" : ""}`);
      return;
    }
    const mark = p.total ? Math.floor((4 * p.received) / p.total) : Math.floor(p.received / 2 ** 26);
    if (p.done) {
      lastMark.delete(p.url);
      stream.write(`  ${name}  ${amount}\n`);
    } else if (mark > (lastMark.get(p.url) ?? 0) && !(p.total && p.received >= p.total)) {
      lastMark.set(p.url, mark);
      stream.write(`  ${name}  ${amount} …\n`);
    }
  };
}

function listSources(): string {
  return DATA_BENCHMARKS.map((b) => {
    const s = SOURCES[b];
    const files = s.dataset
      ? s.dataset.files.kind === "files"
        ? s.dataset.files.paths.map((f) => datasetFileUrl(s.dataset!.repo, s.dataset!.revision, f))
        : [
            `${datasetTreeUrl(s.dataset.repo, s.dataset.revision, s.dataset.files.dir)} → files matching ${s.dataset.files.match}`,
          ]
      : [];
    return [
      `${b}: ${s.title}`,
      `  manifest  ${manifestUrl(s, "")}`,
      ...files.map((f) => `  data      ${f}`),
      `  writes    ${s.defaultOut}`,
      ...(s.note ? [`  note      ${s.note}`] : []),
    ].join("\n");
  }).join("\n\n");
}

export async function runDataCommand(
  argv: string[],
  cwd = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      out: { type: "string" },
      mirror: { type: "string" },
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  const [sub, benchmark, ...extra] = positionals;
  if (values.help || !sub) {
    process.stdout.write(DATA_USAGE);
    return values.help ? 0 : 2;
  }
  if (sub === "list") {
    process.stdout.write(`${listSources()}\n`);
    return 0;
  }
  if (sub !== "pull")
    throw new AppError("INVALID_REQUEST", `unknown data command '${sub}'; use 'data pull <benchmark>' or 'data list'`);
  if (!benchmark) throw new AppError("INVALID_REQUEST", `data pull needs a benchmark: ${DATA_BENCHMARKS.join(", ")}`);
  if (extra.length > 0) throw new AppError("INVALID_REQUEST", `unexpected argument '${extra[0]}'`);
  const fromEnv = env.SKILLOPT_DATA_MIRROR?.trim() ? env.SKILLOPT_DATA_MIRROR : undefined;
  const mirror =
    values.mirror !== undefined ? checkMirror(values.mirror, "--mirror") : checkMirror(fromEnv, "SKILLOPT_DATA_MIRROR");
  if (mirror) process.stderr.write(`using mirror ${mirror}\n`);
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once("SIGINT", onSigint);
  const pulling = pullBenchmark({
    benchmark,
    out: values.out,
    rootDir: cwd,
    mirror,
    force: values.force,
    hfToken: env.HF_TOKEN?.trim() || undefined,
    onProgress: progressReporter(process.stderr),
    log: (line) => process.stderr.write(`${line}\n`),
    signal: abort.signal,
  });
  const result = await pulling
    .catch((err: unknown) => {
      if (!abort.signal.aborted) throw err;
      return null;
    })
    .finally(() => process.off("SIGINT", onSigint));
  if (result === null) {
    process.stderr.write("\ninterrupted: nothing was written\n");
    return 130;
  }
  const shown = path.relative(cwd, result.out) || ".";
  const { train, val, test } = result.counts;
  process.stdout.write(`${result.benchmark}: wrote ${shown} (train ${train} · val ${val} · test ${test})\n`);
  for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
  return 0;
}
