import { describe, expect, it } from "vitest";
import { DEFAULT_CLI_PORT, describeMockOptions, parseMockLlmArgs } from "./cli-args";

describe("mock LLM server flags", () => {
  it("defaults to port 7871 and nothing else", () => {
    expect(parseMockLlmArgs([])).toEqual({ help: false, options: { port: DEFAULT_CLI_PORT, latency: {}, faults: {} } });
  });

  it("maps every flag onto the server options", () => {
    const r = parseMockLlmArgs([
      "--port",
      "0",
      "--host",
      "::1",
      "--seed",
      "7",
      "--latency-mean-ms",
      "200",
      "--latency-jitter-ms",
      "50",
      "--fault-429",
      "0.1",
      "--retry-after",
      "2",
      "--fault-500",
      "0.05",
      "--fault-hang",
      "0.01",
      "--fault-malformed",
      "0.05",
      "--fault-truncated",
      "0.02",
      "--fault-quota",
      "0",
      "--fault-seed",
      "3",
      "--slip-rate",
      "0",
      "--require-key",
      "KEY",
      "--fault-role",
      "target",
      "--fault-by-prompt",
    ]);
    expect(r).toEqual({
      help: false,
      options: {
        port: 0,
        host: "::1",
        seed: 7,
        slipRate: 0,
        latency: { meanMs: 200, jitterMs: 50 },
        faults: {
          rate429: 0.1,
          retryAfterSeconds: 2,
          quotaExhaustedRate: 0,
          rate500: 0.05,
          hangRate: 0.01,
          malformedJsonRate: 0.05,
          truncatedRate: 0.02,
          seed: 3,
          roles: ["target"],
          byPrompt: true,
        },
        requireKey: "KEY",
      },
    });
  });

  it("rejects bad numbers, probabilities above 1, bad ports and unknown flags", () => {
    expect(() => parseMockLlmArgs(["--latency-ms", "soon"])).toThrow(/--latency-ms must be a number/);
    expect(() => parseMockLlmArgs(["--fault-500", "5"])).toThrow(/probability/);
    expect(() => parseMockLlmArgs(["--port", "70000"])).toThrow(/--port/);
    expect(() => parseMockLlmArgs(["--fault-401", "1"])).toThrow();
    expect(() => parseMockLlmArgs(["--fault-role", "judge"])).toThrow(/--fault-role must be target or optimizer/);
    expect(parseMockLlmArgs(["--help"])).toEqual({ help: true });
  });

  it("describes the active knobs in one line", () => {
    const r = parseMockLlmArgs([
      "--latency-ms",
      "200",
      "--fault-429",
      "0.1",
      "--retry-after",
      "1",
      "--require-key",
      "k",
    ]);
    if (r.help) throw new Error("unexpected help");
    expect(describeMockOptions(r.options)).toBe("seed 42, latency 200 ms, faults rate429=0.1, key required");
    const scoped = parseMockLlmArgs(["--fault-500", "0.5", "--fault-role", "target", "--fault-by-prompt"]);
    if (scoped.help) throw new Error("unexpected help");
    expect(describeMockOptions(scoped.options)).toBe("seed 42, faults rate500=0.5 (target only, by prompt)");
  });
});
