/**
 * How the OfficeQA agent gets evidence between rounds: local tools over the corpus (offline), web
 * searches (custom_search), or nothing (tools off: one answer from the hints). Each mode supplies the
 * prompts and turns a reply without an answer into the next user message, or a failure reason.
 */
import type { CorpusFile } from "./corpus";
import type { OfficeQaItem } from "./normalise";
import { buildOfficeQaSystemPrompt, buildOfficeQaUserPrompt, buildSearchSystemPrompt } from "./prompt";
import { formatToolResults, MAX_CALLS_PER_REPLY, parseToolCalls, roundTail, type ToolExchange } from "./protocol";
import { formatSearchResults, parseSearchQueries, searchOnce, type SearchDeps, type SearchSettings } from "./search";
import { createToolRuntime, type ToolRuntime } from "./tools";

/** What every rollout of a run shares. */
export type OfficeQaRuntime =
  | { mode: "offline"; roots: string[]; files: CorpusFile[]; useTools: boolean; maxToolTurns: number }
  | { mode: "custom_search"; search: SearchSettings; deps: SearchDeps; maxToolTurns: number };

/** The result of a round without an answer. */
export type RoundOutcome = { kind: "continue"; message: string } | { kind: "fail"; reason: string };

/** One rollout's prompts and between-round behaviour. */
export interface AgentMode {
  system: string;
  user: string;
  maxRounds: number;
  next(reply: string, round: number, signal?: AbortSignal): Promise<RoundOutcome>;
  extras(): Record<string, unknown>;
}

/** The agent mode for one item. */
export function createAgentMode(runtime: OfficeQaRuntime, qa: OfficeQaItem, skill: string): AgentMode {
  if (runtime.mode === "custom_search") return searchMode(runtime, qa, skill);
  const tools = createToolRuntime({ roots: runtime.roots, files: runtime.files, sourceFiles: qa.source_files });
  const useTools = runtime.useTools;
  const counts = { toolCalls: 0, malformed: 0 };
  return {
    system: buildOfficeQaSystemPrompt(skill, useTools),
    user: buildOfficeQaUserPrompt({
      question: qa.question,
      candidates: tools.candidates.map((f) => f.rel),
      sourceFiles: qa.source_files,
      sourceDocs: qa.source_docs,
      useTools,
    }),
    maxRounds: useTools ? Math.max(1, runtime.maxToolTurns) : 1,
    async next(reply, round) {
      const calls = parseToolCalls(reply);
      if (calls.length === 0) return { kind: "fail", reason: "neither tool request nor answer" };
      return {
        kind: "continue",
        message: formatToolResults(runCalls(calls, tools, counts), round, Math.max(1, runtime.maxToolTurns)),
      };
    },
    extras: () => ({
      resolved_source_paths: tools.candidates.map((f) => f.rel),
      use_local_tools: useTools,
      search_mode: "offline",
      tool_calls: counts.toolCalls,
      malformed_tool_calls: counts.malformed,
    }),
  };
}

function runCalls(
  calls: ReturnType<typeof parseToolCalls>,
  tools: ToolRuntime,
  counts: { toolCalls: number; malformed: number },
): ToolExchange[] {
  return calls.map((c, i): ToolExchange => {
    if (!c.ok) {
      counts.malformed += 1;
      return { name: "invalid", result: `error: ${c.error}`, ok: false };
    }
    if (i >= MAX_CALLS_PER_REPLY) {
      return {
        name: c.call.name,
        result: `error: only ${MAX_CALLS_PER_REPLY} tool calls are run per reply; ask again next round`,
        ok: false,
      };
    }
    counts.toolCalls += 1;
    const result = tools.run(c.call);
    if (result.startsWith("error: unknown tool")) counts.malformed += 1;
    return { name: c.call.name, arguments: c.call.arguments, result, ok: !result.startsWith("error:") };
  });
}

function searchMode(
  runtime: Extract<OfficeQaRuntime, { mode: "custom_search" }>,
  qa: OfficeQaItem,
  skill: string,
): AgentMode {
  const maxRounds = Math.max(1, runtime.maxToolTurns);
  const issued: string[] = [];
  return {
    system: buildSearchSystemPrompt(skill, runtime.search.maxQueriesPerTurn),
    user: buildOfficeQaUserPrompt({
      question: qa.question,
      candidates: [],
      sourceFiles: qa.source_files,
      sourceDocs: qa.source_docs,
      useTools: false,
    }),
    maxRounds,
    async next(reply, round, signal) {
      const queries = parseSearchQueries(reply);
      if (queries === null) return { kind: "fail", reason: "neither search queries nor answer" };
      if (queries.length === 0)
        return {
          kind: "continue",
          message: `error: the <search_queries> block holds no query.\n\n${roundTail(round, maxRounds)}`,
        };
      const chosen = queries.slice(0, runtime.search.maxQueriesPerTurn);
      const results = [];
      for (const query of chosen) {
        issued.push(query);
        results.push({ query, hits: await searchOnce(query, runtime.search, runtime.deps, signal) });
      }
      return { kind: "continue", message: `${formatSearchResults(results)}\n\n${roundTail(round, maxRounds)}` };
    },
    extras: () => ({ use_local_tools: false, search_mode: "custom_search", search_queries: [...issued] }),
  };
}
