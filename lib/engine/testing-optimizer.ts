/**
 * A scripted optimizer for the word environment of ./testing.ts (imported only by tests). It reads the
 * prompts the engine really builds: failure analysts propose one append per missing word found in the
 * "Failure reason" lines; merges concatenate; ranking keeps the first indices; epoch calls write notes.
 */
import { extractJsonArray } from "./json-extract";
import type { CompletionRequest } from "./ports";
import { SIGNATURES } from "./prompts/common";
import { ScriptedClient } from "./testing";

const userText = (req: CompletionRequest) => String(req.messages[0]?.content ?? "");

function missingWords(user: string): string[] {
  return [...new Set([...user.matchAll(/Failure reason: EM=0: missing (\w+)/g)].map((m) => m[1]!))];
}

function mergeItems(user: string): unknown[] {
  const at = user.indexOf("[\n");
  const arr = extractJsonArray(user.slice(at)) ?? [];
  return arr.flatMap((p) => ((p as { edits?: unknown[] })?.edits ?? []) as unknown[]);
}

/** `harmful(user)` decides, from the analyst prompt, whether to add an edit that breaks the skill. */
export function wordOptimizer(opts: { harmful?: (user: string) => boolean } = {}): ScriptedClient {
  return new ScriptedClient((req) => {
    const user = userText(req);
    const first = req.system.split("\n", 1)[0];
    switch (first) {
      case SIGNATURES.failureAnalyst: {
        const edits: Array<Record<string, string>> = missingWords(user).map((w) => ({
          op: "append",
          content: `- remember ${w}`,
        }));
        if (opts.harmful?.(user)) edits.unshift({ op: "replace", target: "- Be careful.", content: "- Be reckless." });
        return JSON.stringify({
          batch_size: 2,
          failure_summary: [{ failure_type: "rule_missing", count: 1, description: "word missing" }],
          patch: { reasoning: "add words", edits },
        });
      }
      case SIGNATURES.successAnalyst:
        return JSON.stringify({ batch_size: 2, success_patterns: [], patch: { reasoning: "nothing", edits: [] } });
      case SIGNATURES.mergeFailure:
      case SIGNATURES.mergeSuccess:
      case SIGNATURES.mergeFinal: {
        const seen = new Set<string>();
        const edits = mergeItems(user).filter((e) => {
          const k = JSON.stringify(e);
          return seen.has(k) ? false : (seen.add(k), true);
        });
        return JSON.stringify({ reasoning: "merged", edits });
      }
      case SIGNATURES.ranking: {
        const budget = Number(/budget=(\d+)/.exec(user)?.[1] ?? 1);
        return JSON.stringify({
          reasoning: "first ones",
          selected_indices: Array.from({ length: budget }, (_, i) => i),
        });
      }
      case SIGNATURES.lrAutonomous:
        return JSON.stringify({ learning_rate: 2, reasoning: "two", confidence: "medium", risk_notes: [] });
      case SIGNATURES.slowUpdate:
        return JSON.stringify({ reasoning: "epoch", slow_update_content: "- keep going" });
      case SIGNATURES.metaSkill:
        return JSON.stringify({ reasoning: "memory", meta_skill_content: "- appends help" });
      default:
        return "{}";
    }
  });
}
