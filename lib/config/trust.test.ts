import { describe, expect, it } from "vitest";
import {
  CONFIG_KEY_TRUST,
  CONFINED_KINDS,
  EXEC_FAMILIES,
  SAFE_EXEC_MEMBERS,
  SERVER_ONLY_KINDS,
  trustKindOf,
  type TrustKind,
} from "../contracts/config-trust";
import { BENCHMARKS } from "../envs/catalog";
import { ConfigError, loadRunConfig } from "./index";
import { MODEL_TRANSPORT_KEYS, SECTION_SCHEMAS } from "./keys";

/** Every dotted key a config may hold: the sections, each benchmark's options, the transport keys and, per exec family, sample members. */
function allConfigKeys(): string[] {
  const keys = new Set<string>();
  for (const [section, schema] of Object.entries(SECTION_SCHEMAS))
    for (const k of Object.keys(schema.shape)) keys.add(`${section}.${k}`);
  for (const b of BENCHMARKS) for (const k of Object.keys(b.options.shape)) keys.add(`env.${k}`);
  for (const k of MODEL_TRANSPORT_KEYS) {
    if (!k.endsWith("_")) keys.add(`model.${k}`);
    // Family members the original knows (spec B.9), and ones a later version might add.
    else
      for (const m of ["path", "bin", "home", "sandbox", "profile", "allow_all_tools", "network_access", "new_option"])
        keys.add(`model.${k}${m}`);
  }
  for (const m of SAFE_EXEC_MEMBERS) keys.add(`model.${m}`);
  return [...keys].sort();
}

/** Names that say "a place, a program, an endpoint or a variable". */
const LOOKS_LOCATED =
  /(path|_dir|dirs$|root|url|endpoint|exec|_bin|home|file|_env$|preset|output|^out_|command|script|python|interpreter)/;

/** Keys whose name matches but which name nothing outside the run, and why. */
const NOT_LOCATIONS: Record<string, string> = {
  "env.exec_timeout": "seconds",
  "env.exec_cache": "a boolean",
  "env.split_mode": "an enum",
  "worker.exec_slots": "a count",
};

describe("trust marks", () => {
  it("marks every key whose name looks like a file, folder, program, endpoint or variable name", () => {
    const unmarked = allConfigKeys().filter(
      (k) =>
        LOOKS_LOCATED.test(k.split(".")[1]!) &&
        trustKindOf(k) === null &&
        !NOT_LOCATIONS[k] &&
        !SAFE_EXEC_MEMBERS.has(k.split(".")[1]!),
    );
    expect(unmarked).toEqual([]);
  });

  it("marks only keys a schema declares", () => {
    const known = new Set(allConfigKeys());
    expect(Object.keys(CONFIG_KEY_TRUST).filter((k) => !known.has(k))).toEqual([]);
  });

  it("treats every agent-CLI option as server-only except the listed safe ones, members added later included", () => {
    for (const f of EXEC_FAMILIES) {
      expect(trustKindOf(`model.${f}path`)).toBe("executable");
      expect(trustKindOf(`model.${f}some_future_flag`)).toBe("executable");
    }
    for (const m of SAFE_EXEC_MEMBERS) expect(trustKindOf(`model.${m}`)).toBeNull();
    expect(trustKindOf("model.target")).toBeNull();
    expect(trustKindOf("env.codex_exec_path")).toBeNull(); // not a model key: unknown, refused by the loader anyway
  });
});

/** A preset where the key is known (benchmark options need their benchmark). */
function presetFor(key: string): string {
  if (key === "env.data_root" || key === "env.allow_unsandboxed") return "configs/spreadsheetbench/sample.yaml";
  if (["env.data_dirs", "env.search_api_url", "env.search_auth_env"].includes(key))
    return "configs/officeqa/sample.yaml";
  return "configs/searchqa/sample.yaml";
}

/** A plausible value an attacker would send for a key of this kind. */
const VALUE: Record<TrustKind, string> = {
  "input-file": "/proc/self/environ",
  "input-dir": "/etc",
  "output-dir": "/tmp/skillopt-anywhere",
  executable: "/bin/sh",
  url: "http://evil.example/v1",
  "env-name": "OPENAI_API_KEY",
};

const SERVER_ONLY_KEYS = [
  ...Object.entries(CONFIG_KEY_TRUST)
    .filter(([, kind]) => SERVER_ONLY_KINDS.has(kind))
    .map(([k]) => k),
  "model.codex_exec_path",
  "model.claude_code_exec_path",
  "model.cursor_exec_path",
  "model.copilot_exec_path",
  "model.codex_bin", // an old alias: folded into codex_exec_path before the check
];

describe("overrides from a request", () => {
  it.each(SERVER_ONLY_KEYS)("%s: refused from a request, naming the key; accepted from the CLI", (key) => {
    const kind = trustKindOf(key.replace("codex_bin", "codex_exec_path"))!;
    // The sandbox opt-out is a switch, not a location: what an attacker sends is `true`.
    const override = `${key}=${key === "env.allow_unsandboxed" ? "true" : VALUE[kind]}`;
    let err: unknown;
    try {
      loadRunConfig(presetFor(key), [override], { trust: "request" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.field).toBe(key.replace("codex_bin", "codex_exec_path"));
    expect(e.message).toMatch(
      /cannot be chosen from the dashboard; set it in the server's environment or a config file under configs\/$/,
    );
    expect(() => loadRunConfig(presetFor(key), [override])).not.toThrow();
  });

  it("lets a request set files (checked where they are read) and the safe agent options", () => {
    for (const [key, kind] of Object.entries(CONFIG_KEY_TRUST).filter(([, k]) => CONFINED_KINDS.has(k))) {
      expect(() => loadRunConfig(presetFor(key), [`${key}=${VALUE[kind]}`], { trust: "request" })).not.toThrow();
    }
    const safe = [
      "model.codex_exec_sandbox=workspace-write",
      "model.codex_exec_reasoning_effort=low",
      "model.claude_code_exec_effort=high",
    ];
    expect(() => loadRunConfig("configs/searchqa/sample.yaml", safe, { trust: "request" })).not.toThrow();
  });

  it("keeps values the preset file itself sets: only the request's own overrides are checked", () => {
    // configs/officeqa/default.yaml names its search auth variable; loading it for a request is fine.
    const { config } = loadRunConfig("configs/officeqa/default.yaml", ["train.num_epochs=1"], { trust: "request" });
    expect((config.env as Record<string, unknown>).search_auth_env).toBe("OFFICEQA_CUSTOM_SEARCH_AUTH");
  });
});
