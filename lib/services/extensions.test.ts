import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findBackendExtension } from "../backends/extensions";
import { normaliseBackend } from "../backends/names";
import { findBenchmark } from "../envs/catalog";
import { findRegisteredBenchmark } from "../envs/descriptors";
import { describeExtensions, forgetExtensions, loadExtensions } from "./extensions";

const ROOT = join(__dirname, "../../tests/fixtures");
// Each case starts from a process that has loaded nothing (the registries are process-wide).
afterEach(() => forgetExtensions());

describe("loadExtensions", () => {
  it("registers a JavaScript module's backends, once however often it is named", async () => {
    const loaded = await loadExtensions(["extensions/shout.mjs", join(ROOT, "extensions/shout.mjs")], ROOT);
    expect(loaded).toEqual([
      { file: "extensions/shout.mjs", backends: ["shout-mjs"], benchmarks: [] },
      { file: "extensions/shout.mjs", backends: ["shout-mjs"], benchmarks: [] },
    ]);
    expect(normaliseBackend("SHOUT-MJS", "model.backend")).toBe("shout-mjs");
    expect(describeExtensions(loaded.slice(0, 1))).toBe("shout-mjs (backend) from extensions/shout.mjs");
  });

  it("compiles a TypeScript module with the project's @/ imports and registers a backend and a benchmark", async () => {
    const [loaded] = await loadExtensions(["extending/skillopt-extensions.ts"], ROOT);
    expect(loaded).toEqual({ file: "extending/skillopt-extensions.ts", backends: ["echo"], benchmarks: ["tally"] });
    expect(findBenchmark("tally-counts")?.name).toBe("tally");
    expect(findRegisteredBenchmark("tally")?.sample().train.length).toBe(8);
    expect(findBackendExtension("echo_chat")?.name).toBe("echo");
  });

  it("names the file when it is missing, fails to import, or exports nothing to register", async () => {
    await expect(loadExtensions(["extensions/nope.mjs"], ROOT)).rejects.toThrow(
      `SKILLOPT_EXTENSIONS: 'extensions/nope.mjs' does not exist (looked for ${join(ROOT, "extensions/nope.mjs")})`,
    );
    await expect(loadExtensions(["extensions/broken.ts"], ROOT)).rejects.toThrow(
      "SKILLOPT_EXTENSIONS: 'extensions/broken.ts' could not be loaded: broken extension: boom at import",
    );
    await expect(loadExtensions(["extensions/empty.mjs"], ROOT)).rejects.toThrow(
      "SKILLOPT_EXTENSIONS: 'extensions/empty.mjs' exports no 'backends' or 'benchmarks' array with an entry to register",
    );
  });

  it("registers all of a file or none of it", async () => {
    await expect(loadExtensions(["extensions/taken.mjs"], ROOT)).rejects.toThrow(
      "SKILLOPT_EXTENSIONS: 'extensions/taken.mjs' could not be registered: registerBackend: 'openai' is already the name of a backend",
    );
    expect(findBackendExtension("taken-first")).toBeNull();
  });
});
