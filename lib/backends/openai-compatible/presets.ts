/**
 * Presets of the `openai-compatible` backend: where each server lives, which variable holds its key
 * (none for local servers), how its models are named, and which optional request parameters it
 * accepts — the client sends those and no others. Plain data (no SDK), so the dashboard catalog can
 * list them.
 */

/** Which optional Chat Completions parameters a server accepts. */
export interface CompatibleParams {
  tokenField: "max_completion_tokens" | "max_tokens";
  /** `reasoning_effort` (top level), `reasoning: {effort}` (OpenRouter), or never. */
  effort: "reasoning_effort" | "reasoning_object" | "none";
  /** Efforts passed through when `effort` is not "none". */
  efforts: readonly string[];
  temperature: boolean;
}

export interface CompatiblePreset {
  name: string;
  label: string;
  baseURL: string;
  /** The environment variable holding the API key; null for local servers that need none. */
  keyVar: string | null;
  /** How models are named on this server (the role's model name is sent as is). */
  modelHint: string;
  params: CompatibleParams;
}

const PLAIN: CompatibleParams = { tokenField: "max_tokens", effort: "none", efforts: [], temperature: true };

export const COMPATIBLE_PRESETS: Record<string, CompatiblePreset> = {
  qwen: {
    name: "qwen",
    label: "Qwen (Alibaba Cloud DashScope)",
    baseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1",
    keyVar: "DASHSCOPE_API_KEY",
    modelHint: "DashScope model names, e.g. qwen-plus, qwen-max, qwen3-coder-plus",
    params: PLAIN,
  },
  minimax: {
    name: "minimax",
    label: "MiniMax",
    baseURL: "https://api.minimax.io/v1",
    keyVar: "MINIMAX_API_KEY",
    modelHint: "MiniMax model names, e.g. MiniMax-M2",
    params: PLAIN,
  },
  vllm: {
    name: "vllm",
    label: "vLLM (local server)",
    baseURL: "http://localhost:8000/v1",
    keyVar: null,
    modelHint: "the name the server was started with, e.g. Qwen/Qwen3-8B",
    params: PLAIN,
  },
  ollama: {
    name: "ollama",
    label: "Ollama (local server)",
    baseURL: "http://localhost:11434/v1",
    keyVar: null,
    modelHint: "a pulled model tag, e.g. llama3.1:8b or qwen3:8b",
    params: PLAIN,
  },
  lmstudio: {
    name: "lmstudio",
    label: "LM Studio (local server)",
    baseURL: "http://localhost:1234/v1",
    keyVar: null,
    modelHint: "the id of a model loaded in LM Studio",
    params: PLAIN,
  },
  openrouter: {
    name: "openrouter",
    label: "OpenRouter",
    baseURL: "https://openrouter.ai/api/v1",
    keyVar: "OPENROUTER_API_KEY",
    modelHint: "vendor/model, e.g. openai/gpt-5 or anthropic/claude-sonnet-4.5",
    params: {
      tokenField: "max_tokens",
      effort: "reasoning_object",
      efforts: ["minimal", "low", "medium", "high"],
      temperature: true,
    },
  },
};

/** No preset: any OpenAI-compatible server at `compatible_base_url` / OPENAI_COMPATIBLE_BASE_URL. */
export const CUSTOM_PARAMS: CompatibleParams = PLAIN;

export const PRESET_NAMES = Object.keys(COMPATIBLE_PRESETS);

/** Backend aliases that imply a preset (the original's qwen_chat / minimax_chat). */
export const PRESET_ALIASES: Record<string, string> = {
  qwen: "qwen",
  qwen_chat: "qwen",
  minimax: "minimax",
  minimax_chat: "minimax",
};
