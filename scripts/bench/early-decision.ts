/**
 * Selection items scored per step gate decision, with and without `evaluation.early_decision`, on every
 * sample preset (simulated model, in memory). Printed by `npm run bench` (and alone with `--only early`).
 * SpreadsheetBench's sample needs bubblewrap; a preset that cannot run here is reported and skipped.
 */
import { readdirSync } from "node:fs";
import type { EngineEvent } from "../../lib/contracts/events";
import { simRunPreset } from "../../lib/runs/sim-harness";

function perDecision(events: EngineEvent[]): { items: number; decisions: number } {
  let items = 0;
  let decisions = 0;
  for (const e of events) {
    if (e.type === "candidateScored" && !e.cached) items += e.nItems;
    if (e.type === "gateDecided") decisions++;
  }
  return { items, decisions };
}

export async function earlyDecisionFigures(line: (k: string, v: string) => void): Promise<void> {
  const presets = readdirSync("configs", { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_"))
    .map((d) => d.name)
    .filter((name) => readdirSync(`configs/${name}`).includes("sample.yaml"))
    .sort();
  console.log("\nselection items scored per gate decision (early_decision off → on; sample presets, simulated model)");
  for (const name of presets) {
    try {
      const off = perDecision((await simRunPreset(`configs/${name}/sample.yaml`)).events);
      const on = perDecision(
        (await simRunPreset(`configs/${name}/sample.yaml`, ["evaluation.early_decision=true"])).events,
      );
      const f = (x: { items: number; decisions: number }) => (x.decisions ? x.items / x.decisions : 0).toFixed(2);
      const saved = off.items > 0 ? (100 * (off.items - on.items)) / off.items : 0;
      line(
        name,
        `${f(off)} → ${f(on)} (${off.decisions} → ${on.decisions} decisions, ${saved.toFixed(1)} % fewer items)`,
      );
    } catch (err) {
      line(name, `not run here: ${(err as Error).message.split("\n")[0]}`);
    }
  }
}
