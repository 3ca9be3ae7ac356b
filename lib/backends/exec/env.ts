/**
 * What an exec CLI may see of the parent environment, where its binary is, and how to install it.
 * Nothing here reads process.env: the caller passes the environment in (STYLE §3.2).
 */
import { accessSync, constants, statSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, resolve } from "node:path";
import type { ExecEnv, ExecKind } from "./types";

/** Always passed through: the CLI must find its interpreter and its per-user config and login. */
const BASE_VARS = ["PATH", "HOME"];

/** Each CLI's own configuration and auth variables (API keys, gateways, cloud-provider switches). */
const CLI_VARS: Record<ExecKind, RegExp[]> = {
  codex: [
    /^CODEX_HOME$/,
    /^CODEX_API_KEY$/,
    /^OPENAI_API_KEY$/,
    /^OPENAI_BASE_URL$/,
    /^OPENAI_ORG_ID$/,
    /^OPENAI_PROJECT_ID$/,
  ],
  claude: [
    /^ANTHROPIC_(API_KEY|AUTH_TOKEN|BASE_URL|MODEL|SMALL_FAST_MODEL|CUSTOM_HEADERS)$/,
    /^CLAUDE_CONFIG_DIR$/,
    /^CLAUDE_CODE_(OAUTH_TOKEN|USE_BEDROCK|USE_VERTEX|SKIP_BEDROCK_AUTH|SKIP_VERTEX_AUTH)$/,
    /^AWS_(REGION|PROFILE|ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN|BEARER_TOKEN_BEDROCK)$/,
    /^CLOUD_ML_REGION$/,
    /^ANTHROPIC_VERTEX_PROJECT_ID$/,
    /^GOOGLE_APPLICATION_CREDENTIALS$/,
  ],
};

/**
 * The child environment of `kind` taken from `source` (usually the process environment): PATH, HOME and
 * the CLI's own variables, plus the names in `extra` (an operator's explicit choice, e.g. HTTPS_PROXY, or
 * IS_SANDBOX=1 which Claude Code needs to bypass permissions as root). Nothing else; empty values are dropped.
 */
export function pickExecEnv(kind: ExecKind, source: ExecEnv, extra: readonly string[] = []): ExecEnv {
  const out: ExecEnv = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || value === "") continue;
    if (BASE_VARS.includes(key) || extra.includes(key) || CLI_VARS[kind].some((re) => re.test(key))) out[key] = value;
  }
  return out;
}

export const EXEC_LABEL: Record<ExecKind, string> = { codex: "codex-exec", claude: "claude-code-exec" };
export const DEFAULT_BIN: Record<ExecKind, string> = { codex: "codex", claude: "claude" };

/** How to get the CLI, or to point at one that exists. */
export function installHint(kind: ExecKind): string {
  return kind === "codex"
    ? "Install the Codex CLI with `npm i -g @openai/codex`, or set model.codex_exec_path / CODEX_EXEC_PATH to its location."
    : "Install Claude Code with `npm i -g @anthropic-ai/claude-code`, or set model.claude_code_exec_path / CLAUDE_CODE_EXEC_PATH to its location.";
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "ENOTDIR") return false;
    throw err;
  }
}

/** A path-like `bin` (it contains a separator) made absolute; a bare name is left for PATH lookup. */
export function resolveBin(bin: string): string {
  return bin.includes("/") && !isAbsolute(bin) ? resolve(bin) : bin;
}

/**
 * Null when `bin` can be run: a path to an executable file, or a name found on `env.PATH`. Otherwise a
 * message that names the binary and how to install it. `kind` defaults from the binary's name.
 */
export function checkExecBinary(bin: string, env: ExecEnv, kind?: ExecKind): string | null {
  const k: ExecKind = kind ?? (basename(bin).toLowerCase().includes("claude") ? "claude" : "codex");
  if (bin.trim() === "") return `${EXEC_LABEL[k]}: no CLI binary configured. ${installHint(k)}`;
  if (bin.includes("/")) {
    return isExecutableFile(resolveBin(bin))
      ? null
      : `${EXEC_LABEL[k]}: '${bin}' is not an executable file. ${installHint(k)}`;
  }
  const dirs = (env.PATH ?? "").split(delimiter).filter((d) => d !== "");
  if (dirs.some((d) => isExecutableFile(join(d, bin)))) return null;
  return `${EXEC_LABEL[k]}: '${bin}' was not found on PATH. ${installHint(k)}`;
}
