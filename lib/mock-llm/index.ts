/**
 * Public surface of the mock LLM server: the simulated model behind OpenAI Chat Completions, OpenAI
 * Responses, Azure OpenAI and Anthropic Messages endpoints, with seeded latency and fault injection, so
 * the real SDK backends can be tested and benchmarked offline.
 */
export { startMockLlmServer } from "./server";
export { type MockFaults, type MockLlmServer } from "./types";
