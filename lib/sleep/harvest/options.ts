/**
 * What a harvest reads and keeps. The caller resolves the config and the environment; harvest itself
 * never looks at process.env or the OS home, so tests point it at a fixture home and a fake platform.
 */
import { z } from "zod";
import type { Clock } from "../../engine/ports";
import { AppError } from "../../errors";
import { TRANSCRIPT_SOURCES } from "../session-digest";

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not an ISO 8601 time");

/** Which projects' sessions are kept. `invoked` also keeps sessions in an ancestor or descendant folder. */
export const HarvestScopeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("invoked"), project: z.string().min(1) }),
  z.object({ kind: z.literal("list"), projects: z.array(z.string().min(1)) }),
]);
export type HarvestScope = z.infer<typeof HarvestScopeSchema>;

/**
 * The lower time bound of kept sessions (by when they ended). `checkpoints` holds the last harvest per
 * project folder; a session takes the checkpoint of the most specific related folder, and a session with
 * none falls back to now − lookbackHours (0 = no bound).
 */
export const HarvestSinceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("after"), iso: isoTime }),
  z.object({
    kind: z.literal("checkpoints"),
    checkpoints: z.record(z.string(), isoTime),
    lookbackHours: z.number().min(0),
  }),
]);
export type HarvestSince = z.infer<typeof HarvestSinceSchema>;

const phrases = z.array(z.string()).default([]);

export const HarvestOptionsSchema = z.object({
  source: z.enum(TRANSCRIPT_SOURCES),
  /** The user's home folder: the default roots hang below it. */
  home: z.string().min(1),
  /** `process.platform` of the machine whose transcripts are read (default roots and path rules). */
  platform: z.string().default("linux"),
  /** The environment variables that move default roots (XDG_*, APPDATA, LOCALAPPDATA, VSCODE_PORTABLE, OPENCODE_DB). */
  env: z.record(z.string(), z.string().optional()).default({}),
  /** Source roots; "" = the default below `home`. */
  claudeHome: z.string().default(""),
  codexHome: z.string().default(""),
  piHome: z.string().default(""),
  cursorHome: z.string().default(""),
  vscodeWorkspaceStorage: z.string().default(""),
  copilotCliSessionStore: z.string().default(""),
  /** OpenCode database; "" = OPENCODE_DB or the platform's data folder; ":memory:" = nothing to read. */
  opencodeDb: z.string().default(""),
  scope: HarvestScopeSchema,
  since: HarvestSinceSchema.default({ kind: "none" }),
  /** Most sessions kept, newest first; 0 = no cap. */
  limit: z.number().int().min(0).default(0),
  /** Extra feedback phrases and sub-agent markers (SKILLOPT_SLEEP_NEG_FEEDBACK / _POS_FEEDBACK / _AGENT_MARKERS). */
  negativeFeedback: phrases,
  positiveFeedback: phrases,
  agentMarkers: phrases,
  /**
   * Extra openings of the engine's own prompts (the cycle's effective templates, overrides included): a
   * one-prompt session that contains one is a headless replay call, not the user's work.
   */
  replayMarkers: phrases,
  /** Folder for private SQLite snapshots; "" = the OS temp folder. Never below an agent's home. */
  tempDir: z.string().default(""),
  clock: z
    .custom<Clock>((v) => typeof (v as Clock | undefined)?.now === "function", "must have a now() method")
    .optional(),
});
export type HarvestOptions = z.input<typeof HarvestOptionsSchema>;
export type ResolvedHarvestOptions = z.output<typeof HarvestOptionsSchema>;

/** Parses the options; a bad one is an INVALID_REQUEST naming the field. */
export function parseHarvestOptions(opts: HarvestOptions): ResolvedHarvestOptions {
  const parsed = HarvestOptionsSchema.safeParse(opts);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = `harvest.${issue.path.join(".")}`;
    throw new AppError("INVALID_REQUEST", `${field}: ${issue.message}`, { field });
  }
  const o = parsed.data;
  if (o.since.kind === "checkpoints" && o.since.lookbackHours > 0 && !o.clock) {
    throw new AppError("INVALID_REQUEST", "harvest.clock: required when since has a lookback window", {
      field: "harvest.clock",
    });
  }
  return o;
}
