/**
 * Rewrites the offline sample from the generator: `npx tsx lib/envs/alfworld/sample-write.ts`.
 * The sample test fails whenever the committed files differ from what this writes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSample } from "./sample-build";

const root = path.join(path.dirname(new URL(import.meta.url).pathname), "sample");
for (const [split, items] of Object.entries(buildSample())) {
  mkdirSync(path.join(root, split), { recursive: true });
  writeFileSync(path.join(root, split, "items.json"), `${JSON.stringify(items, null, 2)}\n`, "utf8");
  console.log(`${split}: ${items.length} games`);
}
