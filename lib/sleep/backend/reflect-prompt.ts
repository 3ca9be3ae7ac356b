/**
 * The reflect step's prompt and the parsing of its reply (spec D.7 "CLI reflect"): up to eight failures
 * (wanted / got / why, 160 characters each), the failing rule criteria translated into plain-English
 * requirements with their counts, the user's preferences, and the benchmark's own output contract when a
 * task carries one. The reply is a JSON array of `{op, content, anchor, rationale}`.
 */
import type { PromptRegistry } from "../prompts";
import type { EditRecord, ReplayResult, TaskRecord } from "../types";
import type { ReflectInput } from "./types";

/** Appended to the one retry after a reply that was not a JSON array. */
export const JSON_RETRY_NOTE =
  "\n\nIMPORTANT: your previous reply was not valid JSON. Reply with ONLY the JSON array, no prose, no markdown fences.";

function explain(criterion: string): string {
  const at = criterion.indexOf("=");
  if (at < 0) return criterion;
  const op = criterion.slice(0, at).trim();
  const arg = criterion.slice(at + 1).trim();
  switch (op) {
    case "max_chars":
      return `the ENTIRE response must be at most ${arg} characters long`;
    case "min_chars":
      return `the response must be at least ${arg} characters long`;
    case "section_present":
      return `the response must contain a section/heading titled '${arg}'`;
    case "section_contains":
      return `a markdown heading must contain the text '${arg}'`;
    case "regex":
      return `the response must match the pattern /${arg}/`;
    case "contains":
      return `the response must contain the text '${arg}'`;
    case "not_contains":
      return `the response must not contain the text '${arg}'`;
    case "tool_called":
      return `the agent must actually call the '${arg}' tool`;
    default:
      return criterion;
  }
}

function criteriaBlock(failures: Array<[TaskRecord, ReplayResult]>): string {
  const counts = new Map<string, number>();
  for (const [, r] of failures) {
    if (!r.failReason.startsWith("failed:")) continue;
    for (const part of r.failReason.slice("failed:".length).split(",")) {
      const c = part.trim();
      if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return "";
  const rows = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `- ${explain(c)}  [${c}, failed ${n}x]`);
  return `\n# Exact criteria the outputs are failing (fix these directly)\n${rows.join("\n")}`;
}

/** The output contract of a benchmark task (its own system prompt, ≤900 characters) plus fixed invariants; "" for mined tasks. */
export function taskGuardrail(tasks: readonly TaskRecord[]): string {
  const system = tasks.map((t) => t.system.trim()).find((s) => s !== "");
  if (!system) return "";
  const contract = system.length > 900 ? `${system.slice(0, 900)} …` : system;
  return [
    "",
    "# Task output contract (rules must obey it — a rule that violates it scores 0)",
    contract,
    "- Do NOT change the required output format or programming language.",
    "- Do NOT tell the agent to ask the user a question or for more information; it must always give a best-effort answer.",
    "- Keep every rule consistent with the contract above.",
    "",
  ].join("\n");
}

export function buildReflectPrompt(prompts: PromptRegistry, input: ReflectInput, preferences: string): string {
  const doc = (input.target === "skill" ? input.skill : input.memory) || "(empty)";
  const failures = input.failures
    .slice(0, 8)
    .map(
      ([t, r]) =>
        `- wanted: ${t.intent.slice(0, 160)}\n  got: ${r.response.slice(0, 160)}\n  why-wrong: ${r.failReason.slice(0, 160)}`,
    )
    .join("\n");
  const prefs = preferences.trim()
    ? `\n# User preferences (honour these as priors when writing rules)\n${preferences.trim()}`
    : "";
  return prompts.render("reflect", {
    __EDIT_BUDGET__: String(input.editBudget),
    __TARGET__: input.target,
    __CUR_DOC__: doc,
    __GUARD__: taskGuardrail(input.failures.map(([t]) => t)),
    __CRITERIA__: criteriaBlock(input.failures),
    __PREFS__: prefs,
    __FAILURES__: failures,
  });
}

/** The first `[` … last `]` (or `{` … `}`) of a chatty reply, parsed; null when there is none or it does not parse. */
export function extractJson(raw: string, kind: "array" | "object"): unknown {
  const [open, close] = kind === "array" ? ["[", "]"] : ["{", "}"];
  const s = raw.indexOf(open);
  const e = raw.lastIndexOf(close);
  if (s < 0 || e <= s) return null;
  try {
    return JSON.parse(raw.slice(s, e + 1));
  } catch {
    return null; // an unparseable reply is "no edits", handled by the caller
  }
}

/** Edits from a parsed reply: objects with non-empty content, at most `budget`. */
export function parseEdits(parsed: unknown, target: "skill" | "memory", budget: number): EditRecord[] {
  if (!Array.isArray(parsed)) return [];
  const out: EditRecord[] = [];
  for (const e of parsed.slice(0, budget)) {
    if (typeof e !== "object" || e === null) continue;
    const o = e as Record<string, unknown>;
    const content = String(o.content ?? "").trim();
    if (!content) continue;
    out.push({
      target,
      op: String(o.op ?? "add")
        .trim()
        .toLowerCase(),
      content,
      anchor: String(o.anchor ?? "").trim(),
      rationale: String(o.rationale ?? "").trim(),
    });
  }
  return out;
}
