/**
 * Process environment, parsed once with zod. The web app, the worker and the scripts import this module;
 * nothing else reads process.env. Empty strings count as unset.
 */
import { delimiter, parse as parsePath, resolve } from "node:path";
import { z } from "zod";
import { parseHost } from "../http/host-guard";

const empty = (v: unknown) => (v === "" ? undefined : v);
const opt = z.preprocess(empty, z.string().optional());

/** A comma-separated list; entries trimmed, empty ones dropped; unset = none. */
const commaList = z
  .string()
  .default("")
  .transform((s) =>
    s
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean),
  );

/** A comma list of host names (`name`, `name:port`, `[v6]:port`), each checked once here. */
const hostList = z.preprocess(
  empty,
  commaList.superRefine((hosts, ctx) => {
    const bad = hosts.find((h) => parseHost(h) === null);
    if (bad !== undefined)
      ctx.addIssue({
        code: "custom",
        message: `'${bad}' is not a host name; use a comma-separated list of name, name:port or [IPv6]:port (e.g. skillopt.lan,10.0.0.5:7860)`,
      });
  }),
);

/**
 * `SKILLOPT_DATA_ROOTS`: extra folders the dashboard may read data from, separated by commas or the path
 * delimiter; relative entries are relative to the project root. A filesystem root is refused: it would
 * allow every file.
 */
export const DataRootsSchema = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(new RegExp(`[,${delimiter}]`))
          .map((s) => s.trim())
          .filter((s) => s !== "")
      : v,
  z
    .array(
      z
        .string()
        .refine(
          (p) => parsePath(resolve(p)).root !== resolve(p),
          "a filesystem root would allow every file; name a data folder",
        ),
    )
    .default([]),
);

export const EnvSchema = z.object({
  DATABASE_URL: z.preprocess(
    empty,
    z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: or postgresql://")
      .default("file:./.skillopt/skillopt.db"),
  ),
  REDIS_URL: z.preprocess(
    empty,
    z
      .string()
      .regex(/^rediss?:\/\//, "must start with redis://")
      .default("redis://127.0.0.1:6379"),
  ),
  SKILLOPT_AUTH_TOKEN: opt,
  /** Extra Host names the dashboard answers to (a reverse proxy's or the machine's name); others get 403. */
  SKILLOPT_ALLOWED_HOSTS: hostList,
  /** The address `npm start` bound the dashboard to (set by scripts/start.ts; unset means loopback). */
  SKILLOPT_HOST: opt,
  WORKER_CONCURRENCY: z.preprocess(empty, z.coerce.number().int().min(1).max(64).default(2)),
  WORKER_ID: opt,
  /** Stalled-job detection (ms): how long a killed worker's job stays locked before another takes it. */
  WORKER_LOCK_MS: z.preprocess(empty, z.coerce.number().int().min(1000).default(30_000)),
  WORKER_STALLED_INTERVAL_MS: z.preprocess(empty, z.coerce.number().int().min(500).default(15_000)),
  /**
   * 1 (or true/yes): never install missing system packages automatically (lib/system); say the command
   * instead. Unset or 0: install them when running as root or with passwordless sudo.
   */
  SKILLOPT_NO_AUTO_INSTALL: z.preprocess(
    empty,
    z
      .string()
      .trim()
      .regex(/^(1|0|true|false|yes|no)$/i, "must be 1 (no automatic installs) or 0")
      .optional(),
  ),
  /** The web app shows a running run as interrupted after this long without a worker heartbeat. */
  SKILLOPT_STALE_AFTER_MS: z.preprocess(empty, z.coerce.number().int().min(2000).default(45_000)),
  /** Data folders the dashboard may read besides configs/, data/, .skillopt/uploads/ and the built-in samples. */
  SKILLOPT_DATA_ROOTS: z.preprocess(empty, DataRootsSchema),
  /** Folders a Sleep project made from the dashboard may name (project, transcripts, skill, tasks file); default: the home folder. */
  SKILLOPT_SLEEP_ROOTS: z.preprocess(empty, DataRootsSchema),
  /**
   * Extension modules (README "Extending"), separated by commas: each exports `backends` and/or `benchmarks`
   * arrays, registered in the dashboard, the worker and the CLI alike. Relative paths are relative to the
   * project root. Only the machine's user sets this: no request can name a module to load.
   */
  SKILLOPT_EXTENSIONS: z.preprocess(empty, commaList),
  /** A run whose worker was lost is restarted automatically this many times (since creation or the last Resume). */
  SKILLOPT_MAX_AUTO_RESTARTS: z.preprocess(empty, z.coerce.number().int().min(0).max(100).default(5)),
  /** How often each worker checks that every run that should be on the queue has a job (ms). */
  SKILLOPT_RECONCILE_MS: z.preprocess(empty, z.coerce.number().int().min(1000).default(60_000)),
  // Model backends: what the dashboard's backend list checks. The backends themselves receive the whole
  // environment (role variants such as OPTIMIZER_OPENAI_API_KEY included); see lib/backends/*/index.ts.
  OPENAI_API_KEY: opt,
  OPTIMIZER_OPENAI_API_KEY: opt,
  TARGET_OPENAI_API_KEY: opt,
  AZURE_OPENAI_API_KEY: opt,
  OPTIMIZER_AZURE_OPENAI_API_KEY: opt,
  TARGET_AZURE_OPENAI_API_KEY: opt,
  AZURE_OPENAI_AD_TOKEN: opt,
  AZURE_OPENAI_ENDPOINT: opt,
  OPTIMIZER_AZURE_OPENAI_ENDPOINT: opt,
  TARGET_AZURE_OPENAI_ENDPOINT: opt,
  ANTHROPIC_API_KEY: opt,
  OPTIMIZER_ANTHROPIC_API_KEY: opt,
  TARGET_ANTHROPIC_API_KEY: opt,
  OPENAI_COMPATIBLE_BASE_URL: opt,
  OPENAI_COMPATIBLE_PRESET: opt,
  OPENAI_COMPATIBLE_API_KEY: opt,
  DASHSCOPE_API_KEY: opt,
  MINIMAX_API_KEY: opt,
  OPENROUTER_API_KEY: opt,
  // Exec target backends: found at *_EXEC_PATH, else by name on PATH.
  PATH: opt,
  CODEX_EXEC_PATH: opt,
  CLAUDE_CODE_EXEC_PATH: opt,
});
export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/** The parsed environment; throws one line naming the variable when a value is invalid. */
export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`environment variable ${issue.path.join(".")}: ${issue.message}`);
  }
  cached = parsed.data;
  return cached;
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
