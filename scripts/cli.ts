/**
 * The SkillOpt command line: `npm run skillopt -- <command> [options]`.
 * Errors are one line on stderr with a non-zero exit code.
 */
import { parseArgs } from "node:util";
import { AppError, describeError, isAppError } from "../lib/errors";
import { loadConfiguredExtensions } from "../lib/services/extensions";
import { EngineError, stopRunOf } from "../lib/engine";
import { runBlameCommand } from "./cli/blame";
import { runCheckCommand } from "./cli/check";
import { runDataCommand } from "./cli/data";
import { runEvalCommand } from "./cli/eval";
import { runTransferEvalCommand } from "./cli/eval-transfer";
import { runSleepCommand } from "./cli/sleep";
import { runTrainCommand } from "./cli/train";

const USAGE = `usage:
  npm run skillopt -- train --config FILE [--data FILE] [--cfg-options key=value ...] [--out DIR] [--no-db]
  npm run skillopt -- train --resume DIR [--config FILE] [--cfg-options key=value ...]
  npm run skillopt -- eval --config FILE --skill FILE [--data FILE] [--split all|train|valid_seen|valid_unseen] [--out DIR] [--no-db]
  npm run skillopt -- eval --config FILE --skill FILE --target BACKEND:MODEL [--target BACKEND:MODEL …] [--csv FILE]
  npm run skillopt -- check --config FILE [--skill FILE ...] [--threshold 0.8] [--json] [--cfg-options key=value ...]
  npm run skillopt -- blame DIR [--json] [--write]
  npm run skillopt -- data pull <benchmark> [--out DIR] [--mirror URL] [--force]
  npm run skillopt -- data list
  npm run skillopt -- sleep <run|dry-run|status|adopt|harvest|schedule|unschedule|experiment> [options]   (sleep --help)

  --no-db      train or eval without recording the run in the dashboard's database (DATABASE_URL, default
               .skillopt/skillopt.db); by default the dashboard lists it and shows it live
  --data FILE  a ratio split of FILE (.jsonl/.csv/.json): the same as --cfg-options env.split_mode=ratio
               env.data_path=FILE, given before any --cfg-options (e.g. configs/custom/default.yaml)

Try it offline (simulated model, no key needed):
  npm run skillopt -- train --config configs/searchqa/sample.yaml
`;

/** `--cfg-options a=1 b=2` takes every following argument up to the next flag. */
function splitArgs(argv: string[]): { argv: string[]; overrides: string[] } {
  const out: string[] = [];
  const overrides: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--cfg-options") {
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) overrides.push(argv[++i]!);
    } else out.push(argv[i]!);
  }
  return { argv: out, overrides };
}

async function main(raw: string[]): Promise<number> {
  const [command, ...rest] = raw;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  // SKILLOPT_EXTENSIONS: the backends and benchmarks the dashboard and the worker register too.
  await loadConfiguredExtensions(process.cwd());
  if (command === "data") return runDataCommand(rest);
  if (command === "sleep") return runSleepCommand(rest);
  const { argv, overrides: given } = splitArgs(rest);
  if (command === "blame") {
    const { values: v, positionals } = parseArgs({
      args: argv,
      options: { json: { type: "boolean" }, write: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1)
      throw new AppError("INVALID_REQUEST", `blame takes one run folder (got ${positionals.length})`, { field: "DIR" });
    return runBlameCommand({ dir: positionals[0], json: v.json, write: v.write });
  }
  if (command === "check") {
    const { values: v } = parseArgs({
      args: argv,
      options: {
        config: { type: "string" },
        skill: { type: "string", multiple: true },
        threshold: { type: "string" },
        json: { type: "boolean" },
      },
      strict: true,
    });
    return runCheckCommand({
      config: v.config,
      skills: v.skill ?? [],
      overrides: given,
      threshold: v.threshold,
      json: v.json,
    });
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: "string" },
      out: { type: "string" },
      resume: { type: "string" },
      skill: { type: "string" },
      split: { type: "string", default: "all" },
      data: { type: "string" },
      "no-db": { type: "boolean", default: false },
      target: { type: "string", multiple: true },
      csv: { type: "string" },
    },
    strict: true,
  });
  const overrides =
    values.data === undefined ? given : [`env.split_mode=ratio`, `env.data_path=${values.data}`, ...given];
  if (command === "train")
    return runTrainCommand({
      config: values.config,
      overrides,
      out: values.out,
      resume: values.resume,
      noDb: values["no-db"],
    });
  if (command === "eval" && values.target?.length)
    return runTransferEvalCommand({
      config: values.config,
      skill: values.skill,
      targets: values.target,
      overrides,
      csv: values.csv,
    });
  if (command === "eval")
    return runEvalCommand({
      config: values.config,
      skill: values.skill,
      split: values.split!,
      overrides,
      out: values.out,
      noDb: values["no-db"],
    });
  process.stderr.write(`unknown command '${command}'\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // A model error that ended the run (bad key, unknown model, exhausted quota) is explained by its message.
    const known =
      isAppError(err) ||
      err instanceof EngineError ||
      stopRunOf(err) !== null ||
      (err as { code?: string })?.code?.startsWith?.("ERR_PARSE_ARGS");
    process.stderr.write(`error: ${describeError(err)}\n`);
    if (!known && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exit(known ? 2 : 1);
  },
);
