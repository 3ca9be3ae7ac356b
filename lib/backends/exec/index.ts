/**
 * Exec target backends: an agent CLI (Codex CLI, Claude Code) answers each benchmark task in a fresh
 * temporary workspace with the skill installed at `.agents/skills/skillopt-target/SKILL.md`.
 */
export { createClaudeCodeExecClient } from "./claude";
export { createCodexExecClient } from "./codex";
export { checkExecBinary, installHint, pickExecEnv } from "./env";
export type { ExecCompletionResult, ExecEnv, ExecKind, ExecSandbox, ExecSettings } from "./types";
export { describeExit, runCli, type CliOutput } from "./run-cli";
