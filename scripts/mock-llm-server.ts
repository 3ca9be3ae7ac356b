/**
 * The mock LLM server as a process: the simulated model behind OpenAI, Azure OpenAI and Anthropic
 * endpoints, for running the real SDK backends offline. See `--help` for the latency and fault knobs.
 *
 *   node --import tsx scripts/mock-llm-server.ts --port 7871 --fault-429 0.1 --retry-after 1
 */
import { describeMockOptions, MOCK_LLM_USAGE, parseMockLlmArgs } from "../lib/mock-llm/cli-args";
import { startMockLlmServer } from "../lib/mock-llm";
import { buildSimKnowledge, SimRuleSchema } from "../lib/contracts/sim";
import { readFileSync } from "node:fs";

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseMockLlmArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`mock LLM server: ${(err as Error).message}\n${MOCK_LLM_USAGE}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${MOCK_LLM_USAGE}\n`);
    return;
  }
  if (parsed.knowledgeFile) {
    // A benchmark's own annotated items (e.g. a scaled benchmark set), instead of the built-in samples.
    const raw = JSON.parse(readFileSync(parsed.knowledgeFile, "utf8")) as {
      rules: unknown;
      items: Array<{ id: string; question?: unknown; sim?: unknown }>;
    };
    parsed.options.knowledge = buildSimKnowledge(SimRuleSchema.array().parse(raw.rules), raw.items);
  }
  const server = await startMockLlmServer(parsed.options);
  process.stdout.write(`mock LLM server listening on ${server.url}\n`);
  process.stdout.write(`mock LLM server: ${describeMockOptions(parsed.options)}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const s = server.stats();
    process.stdout.write(`mock LLM server: ${signal}, stopping after ${s.requests} requests\n`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`mock LLM server: close failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`mock LLM server: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
