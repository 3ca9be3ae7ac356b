/**
 * The simulated OfficeQA agent (a `SimResponder`). It behaves like a tool-using model so that a sim run
 * exercises the real tool loop: first it greps the item's source file for a key term, then it reads the
 * lines around the first hit, then it answers — with the gold answer when the skill carries every rule
 * the item needs, otherwise with the item's characteristic wrong answer for the first missing rule (the
 * extracted answer becomes the trajectory's prediction, from which the sim analyst infers the rule).
 * Deterministic: the same conversation always gives the same reply.
 */
import type { SimResponder, SimTargetCall } from "../../contracts/sim";

/** What the agent knows about a sample item beyond its annotation: what to grep for, and where. */
export interface SimProbe {
  /** A term that occurs in the source file near the needed figure. */
  term: string;
  /** The first source file (basename), or null to search every file. */
  file: string | null;
}

/** Probes by item id, from raw sample items carrying `sim.probe`. */
export function probesFromItems(items: ReadonlyArray<Record<string, unknown>>): Map<string, SimProbe> {
  const out = new Map<string, SimProbe>();
  for (const item of items) {
    const sim = item.sim as { probe?: unknown } | undefined;
    if (typeof item.id !== "string" || typeof sim?.probe !== "string") continue;
    const files = Array.isArray(item.source_files)
      ? item.source_files.filter((f): f is string => typeof f === "string")
      : [];
    out.set(item.id, { term: sim.probe, file: files[0] ?? null });
  }
  return out;
}

function intendedAnswer(call: SimTargetCall): string {
  const sim = call.item?.sim;
  if (!sim) return "not stated in the documents";
  if (call.missingRule) return sim.wrong[call.missingRule.id] ?? "not stated in the documents";
  if (call.slip) {
    const first = sim.needs[0];
    return first !== undefined ? (sim.wrong[first] ?? sim.correct) : "not stated in the documents";
  }
  return sim.correct;
}

const toolCall = (name: string, args: Record<string, unknown>) =>
  `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

/** The body of the last `<tool_result name="…">` block of that tool, or null. */
function lastResult(conversation: string, name: string): string | null {
  const re = new RegExp(`<tool_result name="${name}"[^>]*>\\n([\\s\\S]*?)\\n</tool_result>`, "g");
  let body: string | null = null;
  for (const m of conversation.matchAll(re)) body = m[1] ?? null;
  return body;
}

/** First grep hit as {file, line}: `path:12: text` (many files) or `12: text` (one file). */
function firstHit(grepResult: string, fallbackFile: string | null): { file: string; line: number } | null {
  for (const line of grepResult.split("\n")) {
    const many = /^(.+?):(\d+): /.exec(line);
    if (many && !/^\d+$/.test(many[1] ?? "")) return { file: many[1] as string, line: Number(many[2]) };
    const one = /^(\d+): /.exec(line);
    if (one && fallbackFile !== null) return { file: fallbackFile, line: Number(one[1]) };
  }
  return null;
}

/** Builds the responder over the given probes. */
export function createOfficeQaSimResponder(probes: ReadonlyMap<string, SimProbe>): SimResponder {
  return (call) => {
    if (!call.item) return null;
    const answer = `I have the figure the question asks for.\n<answer>${intendedAnswer(call)}</answer>`;
    const probe = probes.get(call.item.id);
    // Without the tool protocol in the system prompt (use_local_tools: false) the agent answers at once.
    if (!call.system.includes("<tool_call>") || !probe) return answer;
    const grep = lastResult(call.user, "grep");
    if (grep === null) {
      const args = probe.file === null ? { pattern: probe.term } : { pattern: probe.term, path: probe.file };
      return `I will search for "${probe.term}" first.\n${toolCall("grep", args)}`;
    }
    if (lastResult(call.user, "read") === null) {
      const hit = firstHit(grep, probe.file);
      if (hit === null) return answer;
      return `Reading the lines around the match.\n${toolCall("read", { path: hit.file, start: Math.max(1, hit.line - 6), limit: 14 })}`;
    }
    return answer;
  };
}
