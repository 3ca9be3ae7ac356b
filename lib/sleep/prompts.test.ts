import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PROMPTS, PROMPT_NAMES, PromptRegistry } from "./prompts";
import { removeTempDirs, tempDir } from "./test-helpers";

afterAll(removeTempDirs);

describe("prompt registry", () => {
  it("fills __NAME__ placeholders by plain replacement (JSON braces untouched)", () => {
    const p = new PromptRegistry(null).render("judge", { __RUBRIC__: "cites $1 {x}", __RESPONSE__: "resp" });
    expect(p).toContain('{"score": <number from 0 to 1>, "reason": "<one sentence>"}');
    expect(p).toContain("# Rubric\ncites $1 {x}\n\n# Response\nresp");
  });

  it("every template mentions each of its declared placeholders", () => {
    for (const name of PROMPT_NAMES)
      for (const ph of DEFAULT_PROMPTS[name].placeholders)
        expect(DEFAULT_PROMPTS[name].text, `${name} ${ph}`).toContain(ph);
  });

  it("an override file replaces a template, is re-read when it changes, and describe() shows both", () => {
    const path = join(tempDir(), "prompts.json");
    const reg = new PromptRegistry(path);
    expect(reg.template("attempt")).toBe(DEFAULT_PROMPTS.attempt.text);
    writeFileSync(path, JSON.stringify({ attempt: "Solve: __INTENT__" }));
    expect(reg.render("attempt", { __INTENT__: "x" })).toBe("Solve: x");
    writeFileSync(path, JSON.stringify({ attempt: "Now: __INTENT__" }));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(reg.render("attempt", { __INTENT__: "x" })).toBe("Now: x");
    const d = reg.describe().find((x) => x.name === "attempt")!;
    expect(d).toMatchObject({
      stage: "replay",
      role: "target",
      override: "Now: __INTENT__",
      effective: "Now: __INTENT__",
      default: DEFAULT_PROMPTS.attempt.text,
    });
    reg.save({ attempt: null, judge: "J __RUBRIC__" });
    expect(reg.template("attempt")).toBe(DEFAULT_PROMPTS.attempt.text);
    expect(reg.template("judge")).toBe("J __RUBRIC__");
  });

  it("a bad override file is an error naming the file and the key", () => {
    const path = join(tempDir(), "prompts.json");
    writeFileSync(path, JSON.stringify({ atempt: "x" }));
    expect(() => new PromptRegistry(path).template("attempt")).toThrow(
      `${path}: unknown prompt 'atempt'; known: miner, attempt, judge, reflect, contrastive`,
    );
    writeFileSync(path, "{");
    expect(() => new PromptRegistry(path).template("attempt")).toThrow(/not valid JSON/);
  });
});
