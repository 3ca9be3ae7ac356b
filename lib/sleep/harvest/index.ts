/**
 * TEMPORARY SEAM — replaced at merge by the harvest module (lib/sleep/harvest, written on another branch).
 * It declares the call shape the nightly cycle and the CLI use, so the rest of lib/sleep builds and is
 * tested without it (tests inject digests through the cycle's `harvest` dependency). Remove this file
 * when the real module lands; nothing else needs to change.
 */
import type { Clock } from "../../engine/ports";
import { AppError } from "../../errors";
import type { SessionDigest, TranscriptSource } from "../session-digest";

export type HarvestScope = { kind: "all" } | { kind: "invoked"; project: string } | { kind: "list"; projects: string[] };
export type HarvestSince = { kind: "none" } | { kind: "after"; iso: string } | { kind: "checkpoints"; checkpoints: Record<string, string>; lookbackHours: number };

export interface HarvestOptions {
  source: TranscriptSource;
  home: string;
  platform?: string;
  env?: Record<string, string | undefined>;
  claudeHome?: string;
  codexHome?: string;
  piHome?: string;
  cursorHome?: string;
  vscodeWorkspaceStorage?: string;
  copilotCliSessionStore?: string;
  opencodeDb?: string;
  scope: HarvestScope;
  since?: HarvestSince;
  limit?: number;
  negativeFeedback?: string[];
  positiveFeedback?: string[];
  agentMarkers?: string[];
  replayMarkers?: string[];
  tempDir?: string;
  clock?: Clock;
}

export interface HarvestResult {
  digests: SessionDigest[];
  notes: string[];
}

export async function harvestSessions(_opts: HarvestOptions): Promise<HarvestResult> {
  throw new AppError("UNAVAILABLE", "harvest: not available in this build");
}
