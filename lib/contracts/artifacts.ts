/**
 * Names of the files a run produces and the export downloads, in one place: the engine's output layout
 * (spec §13), the export rows (RunArtifact) and the bundle all use these.
 */
export const ARTIFACT = {
  bestSkill: "best_skill.md",
  summary: "summary.json",
  edits: "EDITS.md",
  config: "config.yaml",
  /** Where every line of the best skill came from (lib/engine/blame.ts); in the bundle only. */
  blame: "BLAME.md",
} as const;

export type ArtifactName = (typeof ARTIFACT)[keyof typeof ARTIFACT];

/** The bundle's download name. */
export const bundleFileName = (runId: string): string => `skillopt-run-${runId.slice(0, 8)}.zip`;
