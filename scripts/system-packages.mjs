#!/usr/bin/env node
// The system packages SkillOpt needs (lib/system), from the command line; `.ci/run` uses it before `npm ci`.
//   node scripts/system-packages.mjs ensure test|<purpose>…   install what is missing when allowed, else exit 1
//   node scripts/system-packages.mjs table                    the README's table
// Purposes: unit, services, e2e, redis, spreadsheetbench; `test` is unit + services + e2e.
import { ensurePackages, PURPOSES, requirementsFor, requirementsTable } from "../lib/system/index.mjs";

const [command, ...args] = process.argv.slice(2);
if (command === "table") {
  console.log(requirementsTable());
} else if (command === "ensure" && args.length > 0) {
  const purposes = args.flatMap((a) => (a === "test" ? ["unit", "services", "e2e"] : [a]));
  const unknown = purposes.filter((p) => !(p in PURPOSES));
  if (unknown.length > 0) {
    console.error(`unknown purpose ${unknown.join(", ")}; one of test, ${Object.keys(PURPOSES).join(", ")}`);
    process.exit(2);
  }
  const result = await ensurePackages(requirementsFor(...purposes), {
    purpose: `SkillOpt (${args.join(", ")})`,
    say: (line) => console.log(`[system] ${line}`),
  });
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
} else {
  console.error(
    "usage: node scripts/system-packages.mjs ensure test|unit|services|e2e|redis|spreadsheetbench… | table",
  );
  process.exit(2);
}
