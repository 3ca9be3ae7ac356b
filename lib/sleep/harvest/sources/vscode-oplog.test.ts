import { describe, expect, it } from "vitest";
import { applyOperation } from "./vscode-oplog";

const replay = (ops: Array<Record<string, unknown>>) =>
  ops.reduce<Record<string, unknown> | null>((s, op) => applyOperation(s, op), null);

describe("VS Code chat operation log", () => {
  it("kind 0 sets the whole state; later kinds need one", () => {
    expect(replay([{ kind: 1, k: ["a"], v: 1 }])).toBeNull();
    expect(
      replay([
        { kind: 0, v: { a: 1 } },
        { kind: 0, v: { b: 2 } },
      ]),
    ).toEqual({ b: 2 });
  });

  it("kind 1 sets a value at a path of keys and indexes", () => {
    const s = replay([
      { kind: 0, v: { requests: [{ response: [] }, { response: [] }] } },
      { kind: 1, k: ["requests", 1, "response"], v: ["x"] },
      { kind: 1, k: ["title"], v: "T" },
    ]);
    expect(s).toEqual({ requests: [{ response: [] }, { response: ["x"] }], title: "T" });
  });

  it("kind 2 appends without an index and truncates from the index with one", () => {
    const s = replay([
      { kind: 0, v: { r: [1, 2, 3, 4] } },
      { kind: 2, k: ["r"], v: [5] },
      { kind: 2, k: ["r"], i: 2, v: [9] },
    ]);
    expect(s).toEqual({ r: [1, 2, 9] });
  });

  it("kind 3 deletes a key or an array element", () => {
    const s = replay([
      { kind: 0, v: { r: ["a", "b", "c"], x: 1 } },
      { kind: 3, k: ["r", 1] },
      { kind: 3, k: ["x"] },
    ]);
    expect(s).toEqual({ r: ["a", "c"] });
  });

  it("ignores operations whose path does not resolve or whose value has the wrong shape", () => {
    const start = { r: [1], o: { a: 1 } };
    const s = replay([
      { kind: 0, v: structuredClone(start) },
      { kind: 1, k: ["missing", "deep"], v: 1 },
      { kind: 1, k: ["r", 5], v: 1 },
      { kind: 2, k: ["o"], v: [1] },
      { kind: 2, k: ["r"], v: "not an array" },
      { kind: 2, k: ["r"], i: 7, v: [] },
      { kind: 3, k: ["r", 3] },
      { kind: 1, k: [], v: 1 },
      { kind: 9, k: ["r"], v: [] },
    ]);
    expect(s).toEqual(start);
  });
});
