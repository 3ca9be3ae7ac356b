import { bool, int, num, oneOf, type ConfigField } from "./config-field-kinds";

/**
 * Each benchmark's own `env.*` options (lib/envs/catalog.ts), shown in a section of their own when the
 * preset's benchmark has any. The custom benchmark's options live in the "Your data" card.
 */
export const BENCHMARK_OPTION_FIELDS: Record<string, ConfigField[]> = {
  searchqa: [
    {
      key: "env.max_turns",
      label: "Answer turns",
      help: "Extra turns ask the model to re-check its answer; 1 = one call per question.",
      kind: int(1),
    },
  ],
  livemath: [
    {
      key: "env.shuffle_choices",
      label: "Shuffle choices",
      help: "Reorder the options per batch (seeded) so position cannot leak the answer.",
      kind: bool,
    },
    {
      key: "env.use_theorem",
      label: "Show theorem",
      help: "Give the target the reference theorem statement.",
      kind: bool,
    },
    {
      key: "env.use_sketch",
      label: "Show proof sketch",
      help: "Give the target the reference proof sketch.",
      kind: bool,
    },
  ],
  docvqa: [
    {
      key: "env.max_turns",
      label: "Answer turns",
      help: 'Extra "look again" turns while the reply has no <answer>; 1 = one call.',
      kind: int(1),
    },
    {
      key: "env.image_detail",
      label: "Image detail",
      help: "How much resolution the provider spends on the page image (OpenAI).",
      kind: oneOf(["auto", "low", "high"]),
    },
  ],
  officeqa: [
    {
      key: "env.use_local_tools",
      label: "Document tools",
      help: "glob / read / grep over the corpus; off = one call with the source hints only.",
      kind: bool,
    },
    {
      key: "env.max_tool_turns",
      label: "Tool rounds",
      help: "Model rounds per question before it must answer.",
      kind: int(1),
    },
    {
      key: "env.search_mode",
      label: "Search mode",
      help: "offline = the local corpus; custom_search = POST queries to the search URL the server is configured with.",
      kind: oneOf(["offline", "custom_search"]),
    },
    {
      key: "env.max_queries_per_turn",
      label: "Queries per round",
      help: "custom_search: queries run per model round.",
      kind: int(1),
    },
  ],
  spreadsheetbench: [
    {
      key: "env.mode",
      label: "Mode",
      help: "single = one script; multi = errors (and, in training, wrong cells) are fed back.",
      kind: oneOf(["single", "multi"]),
    },
    { key: "env.max_turns", label: "Turns (multi)", help: "Script attempts per task in multi mode.", kind: int(1) },
    {
      key: "env.sandbox_timeout",
      label: "Script time limit (s)",
      help: "Wall-clock limit of one script run; the whole sandbox is killed.",
      kind: num(0.1, undefined, 1),
    },
    {
      key: "env.memory_mb",
      label: "Script memory (MB)",
      help: "Address-space limit of the script; 0 = none.",
      kind: int(0),
    },
    {
      key: "env.exec_cache",
      label: "Reuse script results",
      help: "The same script on the same test case runs once per run.",
      kind: bool,
    },
  ],
  alfworld: [
    { key: "env.max_steps", label: "Max steps", help: "Actions per game before it counts as lost.", kind: int(1) },
    {
      key: "env.max_api_workers",
      label: "Concurrent games",
      help: "Target calls in flight across games.",
      kind: int(1),
    },
    {
      key: "env.simulator",
      label: "Simulator",
      help: "builtin = our offline household simulator; alfworld = the real games via Python (ALFWORLD_DATA).",
      kind: oneOf(["builtin", "alfworld"]),
    },
  ],
};
