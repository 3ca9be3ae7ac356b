/**
 * Reading a benchmark's built-in sample (JSON files shipped next to its code) and its sim rules.
 */
import { readFileSync } from "node:fs";
import { SimRuleSchema, type SimRule } from "../../contracts/sim";
import type { Item, Splits } from "../../engine/types";

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, "utf8")) as unknown;
}

/** `<sampleDir>/{train,val,test}/items.json` as splits (items keep their hidden `sim` annotation). */
export function readSampleSplits(sampleDir: URL): Splits {
  const read = (name: string) => readJson(new URL(`${name}/items.json`, sampleDir)) as Item[];
  return { train: read("train"), val: read("val"), test: read("test") };
}

/** `<sampleDir>/sim-rules.json`, validated (defaults applied). */
export function readSimRules(sampleDir: URL): SimRule[] {
  const raw = readJson(new URL("sim-rules.json", sampleDir));
  return SimRuleSchema.array().parse(raw);
}

/** A file path next to a module, from `new URL(relative, import.meta.url)` (POSIX paths). */
export function urlToPath(url: URL): string {
  return decodeURIComponent(url.pathname);
}
