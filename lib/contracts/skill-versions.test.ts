import { describe, expect, it } from "vitest";
import { buildVersionList, chainRefAt, parseRef, type ChainInput, type StoredVersion } from "./skill-versions";

const v = (kind: string, step: number, epoch: number, status: string | null = null): StoredVersion => ({
  kind,
  step,
  epoch,
  status,
  contentHash: `${kind}${step}`,
  chars: 10,
  selectionHard: null,
  gateScore: null,
});

const base: ChainInput = {
  versions: [
    v("seed", 0, 0),
    v("candidate", 1, 1),
    v("candidate", 2, 1),
    v("slow_update", 2, 1),
    v("candidate", 3, 2),
    v("candidate", 4, 2),
    v("final", 0, 0),
  ],
  actions: new Map([
    [1, "accept"],
    [2, "reject"],
    [3, "accept_new_best"],
    [4, "reject"],
  ]),
  appendixSteps: new Map(),
  stored: new Set(),
  metaEpochs: [],
};

describe("chainRefAt", () => {
  it("is the latest accepted candidate or slow update at or before the step", () => {
    expect(chainRefAt(base, 0)).toBe("seed");
    expect(chainRefAt(base, 1)).toBe("candidate:1");
    expect(chainRefAt(base, 2)).toBe("slow_update:2");
    expect(chainRefAt(base, 2, false)).toBe("candidate:1");
    expect(chainRefAt(base, 4)).toBe("candidate:3");
  });
});

describe("buildVersionList", () => {
  it("gives every version its parent from the chain when no snapshots are stored", () => {
    const list = buildVersionList(base);
    expect(list.map((e) => [e.ref, e.parentRef])).toEqual([
      ["seed", null],
      ["candidate:1", "seed"],
      ["candidate:2", "candidate:1"],
      ["slow_update:2", "candidate:1"],
      ["candidate:3", "slow_update:2"],
      ["candidate:4", "candidate:3"],
      ["final", null],
    ]);
  });

  it("uses snapshots, lists appendix flushes and meta skills", () => {
    const list = buildVersionList({
      ...base,
      stored: new Set(["after:1", "after:3", "epoch_end:1"]),
      appendixSteps: new Map([
        [3, 2],
        [4, 1], // no snapshot of step 4: not listed
      ]),
      metaEpochs: [1, 2],
    });
    const byRef = new Map(list.map((e) => [e.ref, e]));
    expect(byRef.get("candidate:2")!.parentRef).toBe("after:1");
    expect(byRef.get("slow_update:2")!.parentRef).toBe("epoch_end:1");
    expect(byRef.get("after:3")).toMatchObject({ kind: "appendix_flush", parentRef: "candidate:3" });
    expect(byRef.get("after:3")!.label).toContain("+2 notes");
    expect(byRef.has("after:4")).toBe(false);
    expect(byRef.get("candidate:4")!.parentRef).toBe("after:3");
    expect(byRef.get("meta:1")!.parentRef).toBeNull();
    expect(byRef.get("meta:2")!.parentRef).toBe("meta:1");
    expect(list.at(-1)!.ref).toBe("final");
  });
});

describe("parseRef", () => {
  it("reads references and refuses anything else naming the format", () => {
    expect(parseRef("candidate:12")).toEqual({ kind: "candidate", n: 12 });
    expect(parseRef("seed")).toEqual({ kind: "seed" });
    expect(() => parseRef("../etc/passwd")).toThrow(/expected seed, final, candidate:N/);
  });
});
