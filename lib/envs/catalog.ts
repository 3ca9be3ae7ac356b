/**
 * The benchmark catalog: names, aliases, titles and the benchmark-specific `env.*` options with their
 * defaults (spec A.12). Pure data so the dashboard form, the config loader and the env registry agree
 * on one list. Client-safe: imports only zod.
 *
 * The common env keys (`name`, `skill_init`, `split_*`, `data_path`, `exec_timeout`, `out_root`,
 * `limit`, `workers`, `max_turns`, `max_completion_tokens`) live in `RunConfigSchema.env` and are not
 * repeated here; each schema below holds only what one benchmark adds.
 */
import { z } from "zod";
import { CUSTOM_METRICS } from "../contracts/api";
import { aliasEnum } from "../contracts/run-config";

/** A positive integer option with an upper bound no real run reaches (the bound is in the message). */
const posInt = (fallback: number, max = 1000) => z.number().int().min(1).max(max, `at most ${max}`).default(fallback);

/** One folder or several: a lone string is accepted for convenience and becomes a one-item list. */
const pathList = z.union([z.array(z.string()), z.string().transform((s) => (s.trim() === "" ? [] : [s]))]).default([]);

const SearchQaOptionsSchema = z.strictObject({});

const LiveMathOptionsSchema = z.strictObject({
  /** Reorder the choices per batch (seeded) so position cannot leak the answer. */
  shuffle_choices: z.boolean().default(true),
  use_theorem: z.boolean().default(false),
  use_sketch: z.boolean().default(false),
});

const DocVqaOptionsSchema = z.strictObject({
  image_detail: z.enum(["auto", "low", "high"]).default("auto"),
});

const OfficeQaOptionsSchema = z.strictObject({
  /** Document corpus roots; empty means "use $OFFICEQA_DOCS_DIR, then the usual data folders". */
  data_dirs: pathList,
  use_local_tools: z.boolean().default(true),
  max_tool_turns: posInt(24),
  search_mode: aliasEnum(["offline", "custom_search", "azure_search"], {
    custom: "custom_search",
    azure: "azure_search",
  }).default("offline"),
  max_queries_per_turn: posInt(4, 100),
  search_provider: z.string().default("duckduckgo"),
  search_max_num_results: posInt(4, 100),
  search_timeout_seconds: z.number().positive().max(3600, "at most 3600").default(20),
  /** Empty means "use $OFFICEQA_SEARCH_API_URL or the local default". */
  search_api_url: z.string().default(""),
  /** The NAME of the environment variable holding the search Authorization header, never its value. */
  search_auth_env: z.string().default("OFFICEQA_CUSTOM_SEARCH_AUTH"),
});

const SpreadsheetBenchOptionsSchema = z.strictObject({
  data_root: z.string().default("data/spreadsheetbench_verified_400"),
  mode: z.enum(["single", "multi"]).default("single"),
  /** Wall-clock limit of one run of the model's script, seconds (env.exec_timeout is the whole task's budget). */
  sandbox_timeout: z.number().positive().max(86_400, "at most 86400 (one day)").default(120),
  /** Address-space limit of the script's process, MB; 0 = none. */
  memory_mb: z.number().int().min(0).max(1_048_576, "at most 1048576 (1 TB)").default(2048),
  /** Reuse the result when the same script runs on the same test case again within a run. */
  exec_cache: z.boolean().default(true),
  /**
   * Run the model's scripts without the bubblewrap sandbox when it is unavailable (otherwise such a run
   * is refused before any model call). Only for a machine you trust: the scripts can read your files.
   */
  allow_unsandboxed: z.boolean().default(false),
});

const AlfworldOptionsSchema = z.strictObject({
  /** builtin = the procedural TypeScript simulator; alfworld = the real ALFWorld through a Python bridge. */
  simulator: z.enum(["builtin", "alfworld"]).default("builtin"),
  max_steps: posInt(50),
  max_api_workers: posInt(8, 256),
});

/**
 * Custom datasets (lib/envs/custom/normalise.ts, metrics.ts): each row maps its own field names to the
 * question, the gold answer(s) — a JSON list or a `|`-separated string — an optional context and an
 * optional id (missing ids become a content hash). Metrics: exact, contains, f1 (hard when F1 ≥ 0.5),
 * numeric (|p − g| ≤ tolerance × max(1, |g|)), regex (`{answer}` in the pattern is the escaped gold and
 * the answer must match all of it; without `{answer}` the pattern extracts the answer, which must then
 * equal a gold), judge (the optimizer model grades with `judge_rubric`).
 */
const CustomOptionsSchema = z
  .strictObject({
    id_field: z.string().default("id"),
    question_field: z.string().trim().min(1, "name the field that holds the question").default("question"),
    answer_field: z.string().trim().min(1, "name the field that holds the gold answer").default("answer"),
    /** Empty means the items carry no context passage. */
    context_field: z.string().default(""),
    metric: z.enum(CUSTOM_METRICS).default("exact"),
    /** Relative to the gold value, with an absolute floor: |p − g| ≤ tolerance × max(1, |g|). */
    numeric_tolerance: z.number().min(0).default(1e-6),
    answer_regex: z.string().default(""),
    /** Empty means the built-in rubric: same meaning as a gold answer → 1, wrong or missing → 0. */
    judge_rubric: z.string().default(""),
  })
  .superRefine((opts, ctx) => {
    // Checked here rather than at rollout time so a bad preset fails before any model call is paid for.
    if (opts.metric === "regex" && opts.answer_regex === "") {
      ctx.addIssue({ code: "custom", path: ["answer_regex"], message: "metric 'regex' needs env.answer_regex" });
    }
    if (opts.answer_regex !== "") {
      try {
        new RegExp(opts.answer_regex.replaceAll("{answer}", "x"), "i");
      } catch {
        ctx.addIssue({ code: "custom", path: ["answer_regex"], message: "not a valid regular expression" });
      }
    }
  });

/** Catalog entry for one benchmark. */
export interface BenchmarkInfo {
  /** Canonical name, as stored in `config.env.name`. */
  name: string;
  /** Other spellings accepted in configs (matched trimmed and case-insensitively). */
  aliases: readonly string[];
  /** One line for menus and the README. */
  title: string;
  /** The benchmark-specific `env.*` keys, with defaults. */
  options: z.ZodObject;
}

/** Every benchmark, in menu order. */
export const BENCHMARKS = [
  {
    name: "searchqa",
    aliases: [],
    title: "SearchQA: answer a question from retrieved passages",
    options: SearchQaOptionsSchema,
  },
  {
    name: "livemath",
    aliases: ["livemathematicianbench", "livemathbench"],
    title: "LiveMathematicianBench: multiple-choice questions about recent theorems",
    options: LiveMathOptionsSchema,
  },
  {
    name: "docvqa",
    aliases: [],
    title: "DocVQA: answer a question about a document image",
    options: DocVqaOptionsSchema,
  },
  {
    name: "officeqa",
    aliases: [],
    title: "OfficeQA: answer questions from a corpus of office documents",
    options: OfficeQaOptionsSchema,
  },
  {
    name: "spreadsheetbench",
    aliases: [],
    title: "SpreadsheetBench: write code that edits a workbook",
    options: SpreadsheetBenchOptionsSchema,
  },
  {
    name: "alfworld",
    aliases: [],
    title: "ALFWorld: act in a text household simulator",
    options: AlfworldOptionsSchema,
  },
  {
    name: "custom",
    aliases: [],
    title: "Custom: your own question/answer file (env.data_path)",
    options: CustomOptionsSchema,
  },
] as const satisfies readonly BenchmarkInfo[];

/** A canonical benchmark name. */
export type BenchmarkName = (typeof BENCHMARKS)[number]["name"];

/** Canonical names, in menu order. */
export const BENCHMARK_NAMES: readonly BenchmarkName[] = BENCHMARKS.map((b) => b.name);

const BY_SPELLING = new Map<string, BenchmarkInfo>();
for (const b of BENCHMARKS) {
  BY_SPELLING.set(b.name, b);
  for (const a of b.aliases) BY_SPELLING.set(a, b);
}

/**
 * Entries added at run time (`registerBenchmark` in lib/envs/registry.ts), after the built-ins. One store
 * per process, on globalThis: the dashboard's server bundles each carry a copy of this module, and every
 * copy must see what instrumentation.ts registered from SKILLOPT_EXTENSIONS.
 */
interface Registered {
  list: BenchmarkInfo[];
  bySpelling: Map<string, BenchmarkInfo>;
}
const g = globalThis as unknown as { __skilloptBenchmarkInfos?: Registered };
const registered: Registered = (g.__skilloptBenchmarkInfos ??= { list: [], bySpelling: new Map() });

/** Every benchmark's entry: the built-ins in menu order, then the registered ones. */
export function listBenchmarkInfos(): readonly BenchmarkInfo[] {
  return [...BENCHMARKS, ...registered.list];
}

/**
 * Adds a registered benchmark's entry (its name and aliases are lower-cased); a spelling already taken
 * is refused with the message naming it. Returns the function that removes it again.
 */
export function addBenchmarkInfo(info: BenchmarkInfo): () => void {
  const spellings = [info.name, ...info.aliases].map((a) => a.trim().toLowerCase());
  const taken = spellings.find((sp) => sp === "" || findBenchmark(sp) !== null);
  if (taken !== undefined) throw new Error(`'${taken}' is already the name of a benchmark`);
  const entry = { ...info, name: spellings[0]!, aliases: spellings.slice(1) };
  registered.list.push(entry);
  for (const sp of spellings) registered.bySpelling.set(sp, entry);
  return () => {
    registered.list.splice(registered.list.indexOf(entry), 1);
    for (const sp of spellings) registered.bySpelling.delete(sp);
  };
}

/** The catalog entry for a name or alias, or null if the benchmark is unknown. */
export function findBenchmark(name: string): BenchmarkInfo | null {
  const key = name.trim().toLowerCase();
  return BY_SPELLING.get(key) ?? registered.bySpelling.get(key) ?? null;
}

/** The canonical name for a name or alias (`livemathematicianbench` → `livemath`), or null if unknown. */
export function canonicalBenchmark(name: string): string | null {
  return findBenchmark(name)?.name ?? null;
}

/** The schema of a benchmark's own `env.*` keys (name or alias), or null if the benchmark is unknown. */
export function envOptionsSchema(name: string): z.ZodObject | null {
  return findBenchmark(name)?.options ?? null;
}
