/**
 * Public surface of the mock LLM server: the simulated model behind OpenAI Chat Completions, OpenAI
 * Responses, Azure OpenAI and Anthropic Messages endpoints, with seeded latency and fault injection, so
 * the real SDK backends can be tested and benchmarked offline.
 */
export { startMockLlmServer } from "./server";
export { defaultKnowledge, roleOf } from "./answer";
export {
  FAULT_KINDS,
  MOCK_DEFAULTS,
  type FaultKind,
  type MockEndpoint,
  type MockFaults,
  type MockLatency,
  type MockLlmOptions,
  type MockLlmServer,
  type MockRole,
  type MockStats,
} from "./types";
export {
  LATENCY_STAGES,
  parseLatencyDist,
  sampleLatency,
  stageOfPrompt,
  describeLatencyDist,
  type LatencyDist,
} from "./latency";
