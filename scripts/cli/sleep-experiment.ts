/**
 * `sleep experiment` (spec D.14): the deterministic experiment on the mock backend (or a real one). With
 * `--assert-improves` it prints a PASS line, or a FAIL line and exits 1, unless the held-out score rose and
 * (on the mock) the gate blocked the harmful rule. With `--json` the result is on stdout and the verdict on
 * stderr, so the JSON stays parseable.
 */
import { AppError } from "../../lib/errors";
import {
  buildSleepBackend,
  handoffDirFor,
  PERSONAS,
  promptRegistryFor,
  runExperiment,
  snakeKeys,
  type PersonaName,
} from "../../lib/sleep";
import { configOf, intFlag, printJson, say, type Flags } from "./sleep-args";

function verdict(r: Awaited<ReturnType<typeof runExperiment>>): { pass: boolean; line: string } {
  if (!r.improved)
    return {
      pass: false,
      line: `FAIL: the held-out score did not improve (${r.baselineHoldout} -> ${r.afterHoldout})`,
    };
  if (r.gateBlocksHarmful === false) return { pass: false, line: "FAIL: the gate did not block the harmful edit" };
  if (r.gateBlocksHarmful === null)
    return {
      pass: true,
      line: `PASS: nightly consolidation improved the held-out score (${r.baselineHoldout} -> ${r.afterHoldout}, real backend).`,
    };
  return {
    pass: true,
    line: `PASS: nightly consolidation improved the held-out score (${r.baselineHoldout} -> ${r.afterHoldout}) and the gate blocked the harmful edit.`,
  };
}

export async function runSleepExperiment(f: Flags): Promise<number> {
  const persona = (typeof f.persona === "string" ? f.persona : "researcher") as PersonaName;
  if (!(persona in PERSONAS))
    throw new AppError(
      "INVALID_REQUEST",
      `--persona must be one of ${Object.keys(PERSONAS).join(", ")} (got '${persona}')`,
      { field: "--persona" },
    );
  const cfg = configOf(f, { backend: typeof f.backend === "string" ? f.backend : "mock" });
  const prompts = promptRegistryFor(cfg, process.env);
  const { backend } = buildSleepBackend(cfg, {
    env: process.env,
    prompts,
    handoffDir: handoffDirFor(cfg, process.env),
  });
  if (backend.name === "handoff")
    throw new AppError(
      "INVALID_REQUEST",
      "--backend: the experiment needs a model that answers at once; handoff is not supported",
      { field: "--backend" },
    );
  const r = await runExperiment(backend, prompts, {
    persona,
    nights: intFlag(f, "nights", 1) ?? 4,
    editBudget: intFlag(f, "edit-budget", 1) ?? 4,
    limitTasks: intFlag(f, "limit-tasks") ?? 0,
  });
  const v = verdict(r);
  if (f.json) printJson(snakeKeys(r));
  else {
    const out = [
      `=== SkillOpt-Sleep experiment: persona=${r.persona} backend=${say(r.backend)} model=${say(r.model)} ===`,
      `tasks: ${r.nTasks}   tokens: ${r.tokensUsed}`,
      `baseline held-out: ${r.baselineHoldout}`,
      `after held-out:    ${r.afterHoldout}   (lift ${r.lift >= 0 ? "+" : ""}${r.lift.toFixed(4)})`,
    ];
    if (r.gateBlocksHarmful !== null) out.push(`gate blocks the harmful edit: ${r.gateBlocksHarmful}`);
    out.push(
      "trace:",
      ...r.trace.map(
        (t) =>
          `  night ${t.night}: held-out ${t.holdoutScore} ${t.action} (+${t.nEdits} edits) ${say((t.edits ?? []).join("; ").slice(0, 80))}`,
      ),
    );
    process.stdout.write(`${out.join("\n")}\n`);
  }
  if (!f["assert-improves"]) return 0;
  (f.json ? process.stderr : process.stdout).write(`${f.json ? "" : "\n"}${v.line}\n`);
  return v.pass ? 0 : 1;
}
