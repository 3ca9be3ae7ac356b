import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Trajectory } from "../engine/types";
import { FileCheckpointStore } from "./file-store";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "file-store-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const row = (id: string): Trajectory => ({
  id,
  hard: 1,
  soft: 1,
  status: "ok",
  conversation: [{ role: "user", content: `q ${id}` }],
  targetSystemPrompt: `system ${id}`,
  targetUserPrompt: `user ${id}`,
});
const tick = () => new Promise((r) => setImmediate(r));

describe("FileCheckpointStore (writes behind)", () => {
  it("reads see every earlier write of the key, and the last write of a key is what lands", async () => {
    const store = new FileCheckpointStore(root);
    for (let i = 0; i < 20; i++) await store.putJson("steps/a.json", { i });
    expect(await store.getJson("steps/a.json")).toEqual({ i: 19 });
    await store.putText("notes/b.md", "one");
    await store.putText("notes/b.md", "two");
    expect(await store.getText("notes/b.md")).toBe("two");
    expect(await store.getJson("missing.json")).toBeUndefined();
    await store.flush();
    expect(JSON.parse(readFileSync(join(root, "steps/a.json"), "utf8"))).toEqual({ i: 19 });
    expect(readFileSync(join(root, "notes/b.md"), "utf8")).toBe("two");
  });

  it("appends land in order with their prediction files, batched or not", async () => {
    const store = new FileCheckpointStore(root);
    const key = "steps/step_0001/rollout/results.jsonl";
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.appendRows(key, [row(`it-${i}`)])));
    await store.appendLine("lr_history.jsonl", { a: 1 }, { a: 2 });
    expect((await store.readRows(key)).map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => `it-${i}`));
    await store.flush();
    const pred = join(root, "steps/step_0001/rollout/predictions/it-7");
    expect(JSON.parse(readFileSync(join(pred, "conversation.json"), "utf8"))).toEqual(row("it-7").conversation);
    expect(readFileSync(join(pred, "target_system_prompt.txt"), "utf8")).toBe("system it-7");
    expect(readFileSync(join(root, "lr_history.jsonl"), "utf8")).toBe('{"a":1}\n{"a":2}\n');
  });

  it("the commit point lands only after every write issued before it", async () => {
    const store = new FileCheckpointStore(root);
    const keys = Array.from({ length: 40 }, (_, i) => `steps/step_${i}/record.json`);
    for (const k of keys) await store.putJson(k, { big: "x".repeat(20_000) });
    await store.appendRows("r/results.jsonl", [row("late")]);
    await store.putJson("runtime_state.json", { last_completed_step: 40 });
    const state = join(root, "runtime_state.json");
    while (!existsSync(state)) await tick();
    expect(keys.filter((k) => !existsSync(join(root, k)))).toEqual([]);
    expect(readFileSync(join(root, "r/results.jsonl"), "utf8")).toContain('"late"');
    await store.flush();
  });

  it("a failed write fails the store: later calls reject and the commit point is not written", async () => {
    const store = new FileCheckpointStore(root);
    await store.putText("blocker", "a file where a folder is needed");
    await store.flush();
    await store.putJson("blocker/inner.json", { lost: true });
    await store.putJson("runtime_state.json", { last_completed_step: 1 }).catch(() => {});
    await expect(store.flush()).rejects.toThrow(/ENOTDIR|EEXIST/);
    await expect(store.putJson("other.json", {})).rejects.toThrow(/ENOTDIR|EEXIST/);
    await expect(store.getJson("blocker")).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(existsSync(join(root, "runtime_state.json"))).toBe(false);
    expect(existsSync(join(root, "other.json"))).toBe(false);
  });

  it("refuses keys that leave the folder", async () => {
    const store = new FileCheckpointStore(root);
    await expect(store.putJson("../x.json", {})).rejects.toThrow(/invalid store key/);
    await expect(store.getText("/etc/passwd")).rejects.toThrow(/invalid store key/);
  });
});
