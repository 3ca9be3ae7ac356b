/**
 * A Sleep project row → the night's configuration: the project folder is the invoked project, the
 * transcript home goes to the key its source reads, then the user's own `~/.skillopt-sleep/config.*`
 * fills in the rest (the worker runs as the machine's user, like the CLI). A project with a tasks file
 * replays it instead of harvesting; with a real backend the file must be marked `reviewed: true`.
 */
import { homedir } from "node:os";
import { UnrecoverableError } from "bullmq";
import {
  loadSleepConfig,
  loadTasksFile,
  resolveSleepBackend,
  type SleepConfig,
  type TaskRecord,
} from "../../lib/sleep";
import type { SleepProjectRow } from "../../lib/db/sleep-projects";

/** The config key each transcript source reads its home from. */
const HOME_KEY: Record<string, string | null> = {
  claude: "claude_home",
  codex: "codex_home",
  cursor: "cursor_home",
  pi: "pi_home",
  copilot: "vscode_workspace_storage",
  copilot_cli: "copilot_cli_session_store",
  opencode: "opencode_db",
  auto: null,
};

export function projectConfig(p: SleepProjectRow, home = homedir()): SleepConfig {
  const key = HOME_KEY[p.transcriptSource];
  if (key === undefined) throw new UnrecoverableError(`transcriptSource: unknown source '${p.transcriptSource}'`);
  if (resolveSleepBackend(p.backend, "backend") === "handoff") {
    throw new UnrecoverableError(
      "backend: the handoff backend needs a person to answer its prompts; run it with `npm run skillopt -- sleep run --backend handoff`",
    );
  }
  return loadSleepConfig({
    home,
    cwd: p.directory,
    overrides: {
      invoked_project: p.directory,
      projects: "invoked",
      transcript_source: p.transcriptSource,
      ...(key && p.transcriptHome ? { [key]: p.transcriptHome } : {}),
      target_skill_path: p.targetSkillPath || undefined,
      backend: p.backend,
      model: p.model || undefined,
      lookback_hours: p.lookbackHours,
    },
  });
}

/** The tasks of the project's tasks file, or undefined to harvest. */
export function projectTasks(
  p: SleepProjectRow,
  cfg: SleepConfig,
  warn: (line: string) => void,
): TaskRecord[] | undefined {
  if (!p.tasksFile) return undefined;
  const loaded = loadTasksFile(p.tasksFile, { valFraction: cfg.val_fraction, seed: cfg.seed });
  for (const w of loaded.warnings) warn(w);
  const real = [cfg.backend, cfg.optimizer_backend, cfg.target_backend]
    .filter((b) => b.trim() !== "")
    .some((b) => resolveSleepBackend(b, "backend") !== "mock");
  if (real && !loaded.meta.reviewed) {
    throw new UnrecoverableError(
      `tasksFile: refusing to replay ${p.tasksFile} with a real backend: inspect and redact it, then set "reviewed": true`,
    );
  }
  return loaded.tasks;
}
