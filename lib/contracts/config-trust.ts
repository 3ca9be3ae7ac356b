/**
 * The trust marks of run-config keys: every key that names a file, folder, executable, URL or
 * environment variable, in one table next to the schema (DESIGN §7: a request is not the machine's user).
 *
 *   input-file / input-dir  read by the run. From the dashboard they resolve (real path, symlinks followed)
 *                           only inside the allowed roots; the CLI reads any path.
 *   output-dir              where the run writes. The dashboard never lets a request choose one: its
 *                           runs write under .skillopt/ only.
 *   executable              a program the worker starts (agent CLIs), or how it runs (its home, its
 *                           permissions).
 *   url                     an endpoint that receives the prompts and an API key or auth header.
 *   env-name                the NAME of an environment variable whose value is sent somewhere.
 *
 * The last four are "server-only": a request's overrides may not set them (422 naming the key); they come
 * from the server's environment or a config file under configs/. Client-safe: plain data.
 */

export const TRUST_KINDS = ["input-file", "input-dir", "output-dir", "executable", "url", "env-name"] as const;
export type TrustKind = (typeof TRUST_KINDS)[number];

/** Who a config comes from: the machine's own user (CLI) or an HTTP request (dashboard, worker). */
export type Trust = "local" | "request";

/** Kinds a request may set, confined to the allowed roots. */
export const CONFINED_KINDS: ReadonlySet<TrustKind> = new Set(["input-file", "input-dir"]);

/** Kinds only the server's environment or a local config file may set. */
export const SERVER_ONLY_KINDS: ReadonlySet<TrustKind> = new Set(["output-dir", "executable", "url", "env-name"]);

/** Model transport keys that exist per role too (`optimizer_<key>`, `target_<key>`). */
const PER_ROLE_URL_KEYS = [
  "openai_base_url",
  "azure_openai_endpoint",
  "anthropic_base_url",
  "compatible_base_url",
  // A preset picks the server (its URL) and which key variables are sent to it.
  "compatible_preset",
] as const;

/** Exact dotted keys and their kinds. Benchmark options are listed by their `env.<key>` name. */
export const CONFIG_KEY_TRUST: Readonly<Record<string, TrustKind>> = {
  "env.skill_init": "input-file",
  // A data file, or a folder holding exactly one.
  "env.data_path": "input-file",
  "env.split_dir": "input-dir",
  "env.split_output_dir": "output-dir",
  "env.out_root": "output-dir",
  "env.data_root": "input-dir", // spreadsheetbench
  "env.data_dirs": "input-dir", // officeqa, a list
  "env.search_api_url": "url", // officeqa custom_search
  "env.search_auth_env": "env-name", // officeqa: its value goes to the search URL as Authorization
  // spreadsheetbench: runs model-written code as plain processes when bubblewrap is missing (how it runs).
  "env.allow_unsandboxed": "executable",
  "model.cache_dir": "output-dir",
  ...Object.fromEntries(
    PER_ROLE_URL_KEYS.flatMap((k) => [`model.${k}`, `model.optimizer_${k}`, `model.target_${k}`]).map((k) => [
      k,
      "url" as const,
    ]),
  ),
};

/**
 * The agent-CLI option families (`model.codex_exec_*` …): their `_path` names the binary the worker
 * runs, and the other members set its home, permissions and tools. Only the members listed as safe may
 * come from a request; every other member (including ones added later) is server-only.
 */
export const EXEC_FAMILIES = ["codex_exec_", "claude_code_exec_", "cursor_exec_", "copilot_"] as const;

/** Family members that choose nothing outside the agent's own workspace. */
export const SAFE_EXEC_MEMBERS: ReadonlySet<string> = new Set([
  "codex_exec_sandbox", // read-only | workspace-write, both confined to the temporary workspace
  "codex_exec_reasoning_effort",
  "claude_code_exec_effort",
]);

/** The trust kind of a dotted config key (`section.key`), or null when the key names nothing outside the run. */
export function trustKindOf(dotted: string): TrustKind | null {
  const exact = CONFIG_KEY_TRUST[dotted];
  if (exact) return exact;
  const [section, key, ...rest] = dotted.split(".");
  if (section !== "model" || key === undefined || rest.length > 0) return null;
  const family = EXEC_FAMILIES.some((f) => key.startsWith(f) && key.length > f.length);
  return family && !SAFE_EXEC_MEMBERS.has(key) ? "executable" : null;
}

const WHAT: Record<TrustKind, string> = {
  "input-file": "a file",
  "input-dir": "a folder",
  "output-dir": "an output folder",
  executable: "a program the server runs (or how it runs)",
  url: "an endpoint that receives prompts and credentials",
  "env-name": "an environment variable whose value is sent out",
};

/** A few words naming what a key of this kind points at, for messages. */
export function describeTrustKind(kind: TrustKind): string {
  return WHAT[kind];
}
