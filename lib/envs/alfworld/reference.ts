/**
 * The hidden reference of a real ALFWorld game, shown only to the analyst (spec §A.10): read from the
 * `traj_data.json` that sits next to the game file — task type, up to three human task descriptions,
 * up to twelve human high-level steps, the non-empty PDDL parameters, the planner's high-level plan and
 * a scene summary. Absent or unreadable files simply give no reference.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string =>
  typeof v === "string" ? v.trim() : typeof v === "number" || typeof v === "boolean" ? String(v) : "";

/** Which split a game file comes from, as the original's loader names it. */
export function evalDatasetOf(gamefile: string): "eval_in_distribution" | "eval_out_of_distribution" | "train" {
  if (gamefile.includes("/valid_seen/")) return "eval_in_distribution";
  if (gamefile.includes("/valid_unseen/")) return "eval_out_of_distribution";
  return "train";
}

function humanParts(traj: Record<string, unknown>): { descs: string[]; steps: string[] } {
  const anns =
    isRecord(traj.turk_annotations) && Array.isArray(traj.turk_annotations.anns) ? traj.turk_annotations.anns : [];
  const descs = [...new Set(anns.map((a) => (isRecord(a) ? text(a.task_desc) : "")).filter(Boolean))].slice(0, 3);
  const first = anns.find(isRecord);
  const steps = (first && Array.isArray(first.high_descs) ? first.high_descs : [])
    .map(text)
    .filter(Boolean)
    .slice(0, 12);
  return { descs, steps };
}

function plannerSteps(traj: Record<string, unknown>): string[] {
  const high = isRecord(traj.plan) && Array.isArray(traj.plan.high_pddl) ? traj.plan.high_pddl : [];
  return high.flatMap((h) => {
    const d = isRecord(h) && isRecord(h.discrete_action) ? h.discrete_action : null;
    if (!d) return [];
    const args = Array.isArray(d.args) ? d.args.map(text).filter(Boolean) : [];
    return [`${text(d.action)}(${args.join(", ")})`];
  });
}

/** The analyst's reference for a game file (`game.tw-pddl` or its folder), or undefined. */
export function trajDataReference(gamePath: string): string | undefined {
  const dir = existsSync(gamePath) && statSync(gamePath).isDirectory() ? gamePath : path.dirname(gamePath);
  const file = path.join(dir, "traj_data.json");
  let traj: unknown;
  try {
    traj = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (!isRecord(traj)) return undefined;
  const { descs, steps } = humanParts(traj);
  const params = isRecord(traj.pddl_params)
    ? Object.entries(traj.pddl_params)
        .filter(([, v]) => text(v) !== "" && v !== false)
        .map(([k, v]) => `${k}=${text(v)}`)
    : [];
  const plan = plannerSteps(traj);
  const scene = isRecord(traj.scene) ? traj.scene : {};
  const lines = [`## Reference (traj_data.json)`, `Task type: ${text(traj.task_type) || "unknown"}`];
  if (descs.length) lines.push("Human task descriptions:", ...descs.map((d) => `- ${d}`));
  if (steps.length) lines.push("Human high-level steps:", ...steps.map((s, i) => `${i + 1}. ${s}`));
  if (params.length) lines.push(`PDDL parameters: ${params.join(", ")}`);
  if (plan.length) lines.push("Planner high-level plan:", ...plan.map((s, i) => `${i + 1}. ${s}`));
  const summary = ["floor_plan", "scene_num", "dirty_and_empty"]
    .filter((k) => text(scene[k]) !== "")
    .map((k) => `${k}=${text(scene[k])}`);
  if (summary.length) lines.push(`Scene: ${summary.join(", ")}`);
  return lines.join("\n");
}
