/**
 * The CLI's link to the dashboard: the database of DATABASE_URL (SQLite by default), migrated as
 * `npm start` does, and a recorder that copies the run into it. Any failure is one warning line and the
 * run goes on file-only.
 */
import { randomUUID } from "node:crypto";
import { env } from "../../lib/config/env";
import { errorLine } from "../../lib/contracts/error-line";
import { redactSecrets } from "../../lib/contracts/redact";
import type { RunConfig } from "../../lib/contracts/run-config";
import { createDb } from "../../lib/db/client";
import { CliRunRecorder } from "../../lib/db/cli-runs";
import { skillHash } from "../../lib/engine";
import type { PreparedRun } from "../../lib/runs/prepare";
import { UsageFlusher } from "../../lib/runs/usage-flusher";
import { resolveRoles } from "../../lib/backends/names";
import { migrateDatabase } from "../start/migrate";

const warn = (line: string) => process.stderr.write(`${line}\n`);

export interface RecordInput {
  config: RunConfig;
  run: PreparedRun;
  resolvedYaml: string;
  outDir: string;
  totalSteps: number;
  resume: boolean;
  /** Stops the run when the dashboard's Cancel button is pressed. */
  onCancel: () => void;
  /** What the run is, in its name: `skillopt eval` runs are labelled as evaluations. */
  label?: string;
}

/** A recorder for this run, or null with one warning line when the database cannot be used. */
export async function openRecorder(
  input: RecordInput,
): Promise<{ recorder: CliRunRecorder; close(): Promise<void> } | null> {
  let url: string;
  try {
    url = env().DATABASE_URL;
    await migrateDatabase(url, { say: () => {}, attempts: 2, delayMs: 500 });
  } catch (e) {
    warn(
      `warning: the dashboard database is not available (${errorLine(e).slice(0, 200)}); this run is kept in its output folder only (--no-db skips this)`,
    );
    return null;
  }
  const db = createDb(url);
  const usage = new UsageFlusher(() => input.run.policy.stats());
  const recorder = new CliRunRecorder({
    db,
    warn,
    takeUsage: () => usage.take(),
    hash: skillHash,
    onCancel: input.onCancel,
  });
  const roles = resolveRoles(input.config.model);
  await recorder.start(
    {
      id: randomUUID(),
      name: `${input.config.env.name} · ${input.label ?? "cli"} · ${input.outDir.split("/").at(-1) ?? ""}`,
      config: redactSecrets(input.config),
      sourceYaml: input.resolvedYaml,
      seedSkill: input.run.initialSkill,
      optimizerBackend: roles.optimizer,
      targetBackend: roles.target,
      optimizerModel: input.run.optimizer.model,
      targetModel: input.run.target.model,
      simulated: input.run.simulated,
      stepsTotal: input.totalSteps,
      outDir: input.outDir,
    },
    { resume: input.resume },
  );
  return { recorder, close: () => db.$disconnect() };
}
