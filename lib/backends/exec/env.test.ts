import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkExecBinary, pickExecEnv } from "./index";
import { FAKE_BIN_DIR, FAKE_CODEX, makeScratch, type Scratch } from "./test-helpers";
import { buildTrace, redactSecrets, TRACE_LINE_MAX, TRACE_MAX_CHARS } from "./trace";

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

describe("pickExecEnv", () => {
  const source = {
    PATH: "/bin",
    HOME: "/home/u",
    OPENAI_API_KEY: "sk-1",
    CODEX_HOME: "/c",
    ANTHROPIC_API_KEY: "a-1",
    CLAUDE_CONFIG_DIR: "/cc",
    DATABASE_URL: "postgres://secret",
    SKILLOPT_AUTH_TOKEN: "t",
    EMPTY: "",
  };
  it("passes PATH, HOME and the CLI's own variables only", () => {
    expect(pickExecEnv("codex", source)).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      OPENAI_API_KEY: "sk-1",
      CODEX_HOME: "/c",
    });
    expect(pickExecEnv("claude", source)).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      ANTHROPIC_API_KEY: "a-1",
      CLAUDE_CONFIG_DIR: "/cc",
    });
    expect(pickExecEnv("claude", { ...source, HTTPS_PROXY: "http://p" }, ["HTTPS_PROXY", "EMPTY"])).toMatchObject({
      HTTPS_PROXY: "http://p",
    });
    expect(pickExecEnv("claude", source, ["EMPTY"])).not.toHaveProperty("EMPTY");
  });
});

describe("checkExecBinary", () => {
  it("finds a binary on PATH or by path", () => {
    expect(checkExecBinary("codex", { PATH: `/nonexistent:${FAKE_BIN_DIR}` })).toBeNull();
    expect(checkExecBinary(FAKE_CODEX, {})).toBeNull();
  });

  it("names the binary and how to install it when it cannot be run", () => {
    expect(checkExecBinary("codex", { PATH: scratch.dir })).toMatch(
      /codex-exec: 'codex' was not found on PATH\. .*npm i -g @openai\/codex/,
    );
    expect(checkExecBinary("claude", {})).toMatch(
      /claude-code-exec: 'claude' was not found.*npm i -g @anthropic-ai\/claude-code/,
    );
    const plain = join(scratch.dir, "my-cli");
    writeFileSync(plain, "#!/bin/sh\n");
    chmodSync(plain, 0o644);
    expect(checkExecBinary(plain, {}, "claude")).toMatch(/is not an executable file.*@anthropic-ai\/claude-code/);
    expect(checkExecBinary(scratch.dir, {}, "codex")).toMatch(/is not an executable file/);
  });
});

describe("trace", () => {
  it("redacts key-like values, bearer tokens and the child's secret variables", () => {
    const text =
      "OPENAI_API_KEY=sk-proj-abcdefgh1234 token: hunter22 Authorization: Bearer xyzxyzxyzxyz pw mine-secret-value";
    const out = redactSecrets(text, { MY_TOKEN: "mine-secret-value", PATH: "/bin" });
    expect(out).toBe("OPENAI_API_KEY=[redacted] token: [redacted] Authorization: Bearer [redacted] pw [redacted]");
  });

  it("keeps every line and the whole trace within bounds", () => {
    const lines = Array.from({ length: 400 }, (_, i) => `$ command number ${i} ${"x".repeat(i % 7 === 0 ? 1000 : 10)}`);
    const trace = buildTrace(lines);
    expect(trace.length).toBeLessThanOrEqual(TRACE_MAX_CHARS);
    expect(Math.max(...trace.split("\n").map((l) => l.length))).toBeLessThanOrEqual(TRACE_LINE_MAX);
    expect(trace).toMatch(/^\$ command number 0 /);
    expect(trace).toMatch(/… \d+ trace lines omitted …/);
    expect(trace.split("\n").at(-1)).toMatch(/^\$ command number 399 x+…$/);
  });
});
