/**
 * `sleep status`, `sleep adopt` and `sleep harvest`.
 */
import { harvestSessions } from "../../lib/sleep/harvest";
import {
  adoptNight,
  harvestAndMine,
  makeTasksPayload,
  managedSkillPathOf,
  MockBackend,
  promptRegistryFor,
  sleepStatus,
  snakeKeys,
  writeTasksFile,
} from "../../lib/sleep";
import { NoEvidence } from "../../lib/sleep/evidence";
import { readLiveBaseline } from "../../lib/sleep/live";
import { markNightAdoptedByStaging } from "../../lib/db/sleep-nights";
import { configOf, printJson, say, type Flags } from "./sleep-args";
import { openCliDb } from "./sleep-db";

export async function runSleepStatus(f: Flags): Promise<number> {
  const s = sleepStatus(configOf(f));
  if (f.json) {
    // The spec's keys, plus handoff_waiting only while a handoff night of the project waits for answers.
    const { reportMd: _report, handoffWaiting, ...rest } = s;
    printJson(snakeKeys(handoffWaiting ? { ...rest, handoffWaiting } : rest));
    return s.stagingError ? 1 : 0;
  }
  const out = [`[sleep] nights so far: ${s.night}`, `[sleep] project: ${say(s.project)}`];
  const w = s.handoffWaiting;
  if (w)
    out.push(
      `[sleep] night ${w.night} is waiting for answers to ${w.pending} handoff prompt(s) since ${say(w.since)}: ${say(w.promptsPath)}`,
      `[sleep] write each raw answer to ${say(w.answersDir)}/<id>.md, then run the same sleep run command again`,
    );
  if (!s.latestStaging) out.push("[sleep] no staged proposals yet.");
  else {
    out.push(`[sleep] latest staged night: ${say(s.latestStaging)}`);
    if (s.stagingError) out.push(`[sleep] cannot read the latest staged night: ${say(s.stagingError)}`);
    if (s.stagedSkills.length > 0)
      out.push("[sleep] per-skill proposals waiting:", ...s.stagedSkills.map((n) => `   ${say(n)}`));
    if (s.adoptedSkills.length > 0)
      out.push("[sleep] already adopted from this night:", ...s.adoptedSkills.map((n) => `   ${say(n)}`));
    if (s.hasManagedProposal)
      out.push("[sleep] a managed proposal is waiting (sleep adopt, or --legacy on a fan-out night)");
    if (s.reportMd && !s.stagingError) out.push("", ...s.reportMd.split("\n").map(say));
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return s.stagingError ? 1 : 0;
}

/** The dashboard's row of the adopted night follows (best effort: the files are the truth). */
async function recordAdoption(f: Flags, stagingDir: string): Promise<void> {
  const store = await openCliDb(f);
  try {
    if (store.db) await markNightAdoptedByStaging(stagingDir, { db: store.db });
  } catch (err) {
    process.stderr.write(
      `[sleep] warning: the dashboard's record of this night was not updated: ${say((err as Error).message)}\n`,
    );
  } finally {
    await store.close();
  }
}

export async function runSleepAdopt(f: Flags): Promise<number> {
  const cfg = configOf(f);
  const r = adoptNight({
    project: cfg.invoked_project,
    staging: typeof f.staging === "string" ? f.staging : undefined,
    skills: Array.isArray(f.skill) ? f.skill : [],
    allSkills: f["all-skills"] === true,
    legacy: f.legacy === true,
  });
  if (r.ok) await recordAdoption(f, r.stagingDir);
  if (f.json) {
    printJson(
      snakeKeys(
        r.ok
          ? {
              ok: true,
              stagingDir: r.stagingDir,
              mode: r.mode,
              adoptedSkills: r.adoptedSkills,
              updatedPaths: r.updatedPaths,
            }
          : r,
      ),
    );
    return r.ok ? 0 : r.code;
  }
  if (!r.ok) {
    process.stdout.write(`[sleep] ${say(r.message)}\n`);
    for (const s of r.availableSkills ?? [])
      process.stdout.write(`   ${say(s.skillName)} -> ${say(s.liveSkillPath)}\n`);
    return r.code;
  }
  process.stdout.write(`[sleep] adopted from ${say(r.stagingDir)}\n`);
  for (const p of r.updatedPaths) process.stdout.write(`   -> ${say(p)}\n`);
  if (r.updatedPaths.length === 0) process.stdout.write("[sleep] (the night staged no accepted changes)\n");
  return 0;
}

/** Harvest and mine without consolidating or saving anything; like the original, the whole history is read (no checkpoint). */
export async function runSleepHarvest(f: Flags): Promise<number> {
  const cfg = configOf(f);
  const env = process.env;
  const prompts = promptRegistryFor(cfg, env);
  const target =
    cfg.target_task_filter && cfg.target_skill_path ? readLiveBaseline(managedSkillPathOf(cfg), "skill") : null;
  const deps = {
    config: cfg,
    harvest: harvestSessions,
    backend: new MockBackend(),
    prompts,
    env,
    now: () => Date.now(),
    platform: process.platform,
    evidence: new NoEvidence(),
  };
  const mined = await harvestAndMine(
    deps,
    null,
    target?.text ? { skillText: target.text, skillPath: target.path } : null,
  );
  const payload = makeTasksPayload(mined.tasks, {
    project: cfg.invoked_project,
    transcriptSource: cfg.transcript_source,
    nSessions: mined.digests.length,
    targetSkillPath: cfg.target_skill_path,
  });
  const output = typeof f.output === "string" ? writeTasksFile(f.output, payload) : "";
  if (f.json) {
    printJson(output ? { ...payload, output } : payload);
    return 0;
  }
  const out = [`[sleep] ${mined.digests.length} sessions -> ${mined.tasks.length} tasks`];
  if (output) out.push(`[sleep] wrote a tasks file to review: ${say(output)} (set "reviewed": true once checked)`);
  for (const t of mined.tasks) out.push(`  [${t.split}/${t.outcome}] ${say(t.intent.slice(0, 90))}`);
  for (const n of mined.notes) out.push(`[sleep] note: ${say(n)}`);
  process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
