/**
 * Command-line flags of `scripts/mock-llm-server.ts`, parsed and checked here so the script stays a
 * thin shell and the parsing is unit-tested.
 */
import { parseArgs } from "node:util";
import { describeLatencyDist, LATENCY_STAGES, parseLatencyDist, type LatencyDist } from "./latency";
import type { MockFaults, MockLatency, MockLlmOptions, MockRole } from "./types";

export const DEFAULT_CLI_PORT = 7871;

export const MOCK_LLM_USAGE = `usage: node --import tsx scripts/mock-llm-server.ts [flags]
  --port N                 listen port (default ${DEFAULT_CLI_PORT}; 0 = any free port)
  --host H                 bind address (default 127.0.0.1)
  --seed N                 seed of the sim, latency and fault draws (default 42)
  --latency-ms N           fixed delay before every answer
  --latency-mean-ms N      mean delay, varied by --latency-jitter-ms N (uniform ±)
  --latency DIST           delay distribution of every call: fixed:MS or
                           lognormal:MEDIAN_MS:SIGMA[:SLOW_FRACTION[:SLOW_FACTOR]] (slow factor default 10)
  --latency-stage S=DIST   distribution for one stage (repeatable): rollout (target calls), analyst, merge,
                           ranking, lr_autonomous, rewrite, slow_update, meta_skill, appendix_consolidate
  --fault-429 P            probability of a 429 with Retry-After
  --retry-after S          Retry-After seconds on those 429s (default 1)
  --fault-quota P          probability of a 429 insufficient_quota (no Retry-After)
  --fault-500 P            probability of a 500
  --fault-hang P           probability of never answering
  --fault-malformed P      probability of a 200 with a cut-off JSON body
  --fault-truncated P      probability of an answer cut in half (finish_reason length)
  --fault-seed N           seed of the fault draws only (default: --seed)
  --fault-role R           only requests of role R (target or optimizer) meet faults
  --fault-by-prompt        draw faults per prompt: the same prompt always meets the same fault (retries cannot help)
  --slip-rate P            sim target slip rate (default 0.04)
  --unhelpful-rate P       sim optimizer unhelpful-edit rate (default 0.25)
  --malformed-rate P       sim optimizer malformed-output rate (default 0)
  --require-key KEY        answer 401 unless the request carries KEY
  --knowledge FILE         the sim's knowledge as JSON {rules, items} (default: the built-in samples)
  --help                   show this text`;

const NUMERIC = [
  "port",
  "seed",
  "latency-ms",
  "latency-mean-ms",
  "latency-jitter-ms",
  "fault-429",
  "retry-after",
  "fault-quota",
  "fault-500",
  "fault-hang",
  "fault-malformed",
  "fault-truncated",
  "fault-seed",
  "slip-rate",
  "unhelpful-rate",
  "malformed-rate",
] as const;
type NumericFlag = (typeof NUMERIC)[number];

const PROBABILITIES: ReadonlySet<NumericFlag> = new Set([
  "fault-429",
  "fault-quota",
  "fault-500",
  "fault-hang",
  "fault-malformed",
  "fault-truncated",
  "slip-rate",
  "unhelpful-rate",
  "malformed-rate",
]);

export type CliResult = { help: true } | { help: false; options: MockLlmOptions; knowledgeFile?: string };

/** Parses argv (without node and the script path); throws an Error with a user-facing message. */
export function parseMockLlmArgs(argv: string[]): CliResult {
  const options = Object.fromEntries(NUMERIC.map((n) => [n, { type: "string" }])) as Record<
    NumericFlag,
    { type: "string" }
  >;
  const { values } = parseArgs({
    args: argv,
    allowPositionals: false,
    options: {
      ...options,
      host: { type: "string" },
      "require-key": { type: "string" },
      "fault-role": { type: "string" },
      "fault-by-prompt": { type: "boolean", default: false },
      latency: { type: "string" },
      "latency-stage": { type: "string", multiple: true },
      knowledge: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return { help: true };
  const num = (name: NumericFlag): number | undefined => {
    const raw = values[name];
    if (typeof raw !== "string") return undefined;
    const v = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(v) || v < 0)
      throw new Error(`--${name} must be a number ≥ 0 (got '${raw}')`);
    if (PROBABILITIES.has(name) && v > 1) throw new Error(`--${name} is a probability between 0 and 1 (got ${raw})`);
    return v;
  };
  const port = num("port") ?? DEFAULT_CLI_PORT;
  if (!Number.isInteger(port) || port > 65535) throw new Error(`--port must be an integer 0-65535 (got ${port})`);

  const latency: MockLatency = {
    fixedMs: num("latency-ms"),
    meanMs: num("latency-mean-ms"),
    jitterMs: num("latency-jitter-ms"),
    dist: typeof values.latency === "string" ? parseLatencyDist(values.latency, "--latency") : undefined,
    byStage: stageDists(values["latency-stage"]),
  };
  const faults: MockFaults = {
    rate429: num("fault-429"),
    retryAfterSeconds: num("retry-after"),
    quotaExhaustedRate: num("fault-quota"),
    rate500: num("fault-500"),
    hangRate: num("fault-hang"),
    malformedJsonRate: num("fault-malformed"),
    truncatedRate: num("fault-truncated"),
    seed: num("fault-seed"),
    roles: roleOf(values["fault-role"]),
    byPrompt: values["fault-by-prompt"] ? true : undefined,
  };
  const out: MockLlmOptions = {
    port,
    host: typeof values.host === "string" ? values.host : undefined,
    seed: num("seed"),
    slipRate: num("slip-rate"),
    unhelpfulRate: num("unhelpful-rate"),
    malformedRate: num("malformed-rate"),
    latency: dropUndefined(latency),
    faults: dropUndefined(faults),
    requireKey: typeof values["require-key"] === "string" ? values["require-key"] : undefined,
  };
  const knowledgeFile = typeof values.knowledge === "string" ? values.knowledge : undefined;
  return { help: false, options: dropUndefined(out), ...(knowledgeFile ? { knowledgeFile } : {}) };
}

function stageDists(raw: string[] | undefined): Record<string, LatencyDist> | undefined {
  if (!raw || raw.length === 0) return undefined;
  const out: Record<string, LatencyDist> = {};
  for (const entry of raw) {
    const eq = entry.indexOf("=");
    const stage = eq < 0 ? "" : entry.slice(0, eq).trim();
    if (!LATENCY_STAGES.includes(stage))
      throw new Error(
        `--latency-stage: expected STAGE=DIST with STAGE one of ${LATENCY_STAGES.join(", ")} (got '${entry}')`,
      );
    out[stage] = parseLatencyDist(entry.slice(eq + 1), `--latency-stage ${stage}`);
  }
  return out;
}

function roleOf(raw: string | undefined): MockRole[] | undefined {
  if (raw === undefined) return undefined;
  if (raw !== "target" && raw !== "optimizer")
    throw new Error(`--fault-role must be target or optimizer (got '${raw}')`);
  return [raw];
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** One line describing the active knobs, printed at start-up. */
export function describeMockOptions(o: MockLlmOptions): string {
  const parts = [`seed ${o.seed ?? 42}`];
  const l = o.latency ?? {};
  if (l.dist) parts.push(`latency ${describeLatencyDist(l.dist)}`);
  else if (l.fixedMs) parts.push(`latency ${l.fixedMs} ms`);
  else if (l.meanMs || l.jitterMs) parts.push(`latency ${l.meanMs ?? 0}±${l.jitterMs ?? 0} ms`);
  const active = Object.entries(o.faults ?? {}).filter(
    ([k, v]) => typeof v === "number" && k !== "seed" && k !== "retryAfterSeconds" && v > 0,
  );
  if (active.length > 0) {
    const scope = [
      o.faults?.roles ? `${o.faults.roles.join("+")} only` : "",
      o.faults?.byPrompt ? "by prompt" : "",
    ].filter(Boolean);
    parts.push(
      `faults ${active.map(([k, v]) => `${k}=${v}`).join(" ")}${scope.length > 0 ? ` (${scope.join(", ")})` : ""}`,
    );
  }
  for (const [stage, d] of Object.entries(l.byStage ?? {})) parts.push(`${stage} ${describeLatencyDist(d)}`);
  if (o.requireKey !== undefined) parts.push("key required");
  return parts.join(", ");
}
