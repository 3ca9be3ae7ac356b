import { chmodSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir, writeText } from "../test-helpers";
import { createToolRunner } from "./tool-replay";

afterAll(removeTempDirs);

/** A stand-in `claude` CLI: runs ./search when the prompt asks for it, and answers with what it did. */
function fakeClaude(dir: string): string {
  const bin = writeText(
    join(dir, "claude"),
    `#!/bin/sh
prompt=$(cat)
case "$prompt" in
  *"MUST use search"*) out=$(./search "q"); echo "searched: $out";;
  *) echo "answered without tools";;
esac
echo "args: $*" >&2
`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

describe("tool replay with logging shell shims", () => {
  const work = tempDir();
  const run = (bin: string) =>
    createToolRunner({ kind: "claude", bin, env: { PATH: process.env.PATH }, timeoutMs: 10_000, workRoot: work });

  it("reports the tools the agent actually ran, read from the shims' log, and removes its folder", async () => {
    const bin = fakeClaude(tempDir());
    const r = await run(bin)("Skill: you MUST use search before answering.", ["search", "calc"]);
    expect(r.response).toBe("searched: (results: 3 relevant notes found; use them to answer)");
    expect(r.called).toEqual(["search"]);
    const none = await run(bin)("no instructions", ["search"]);
    expect(none).toMatchObject({ response: "answered without tools", called: [] });
    expect(readdirSync(work)).toEqual([]);
  });

  it("refuses a tool name that is not one plain file name", async () => {
    await expect(run(fakeClaude(tempDir()))("x", ["../evil"])).rejects.toThrow(
      /'\.\.\/evil' is not a usable tool name/,
    );
  });

  it("a CLI that fails is an error with its exit status", async () => {
    const bin = writeText(join(tempDir(), "claude"), "#!/bin/sh\ncat >/dev/null\necho 'Not logged in' >&2\nexit 2\n");
    chmodSync(bin, 0o755);
    await expect(run(bin)("x", ["search"])).rejects.toThrow(/exited with code 2: Not logged in/);
  });
});
