/** One longitudinal pair (buildPair, slim) and the comparison text the slow-update prompt shows (formatComparison). */
import { describe, expect, it } from "vitest";
import { buildPair, formatComparison, slim } from "./longitudinal";
import type { Item, Trajectory } from "./types";

describe("buildPair", () => {
  const item: Item = { id: "i1", question: "What?" };
  const traj = (hard: number, extra: Partial<Trajectory> = {}): Trajectory => ({
    id: "i1",
    hard,
    soft: hard ? 1 : 0.25,
    status: "ok",
    prediction: hard ? "right" : "wrong",
    failReason: hard ? undefined : "EM=0: wrong",
    conversation: [{ role: "assistant", content: "said something" }, "loose text"],
    ...extra,
  });

  it.each([
    [0, 1, "improved"],
    [1, 0, "regressed"],
    [0, 0, "persistent_fail"],
    [1, 1, "stable_success"],
    [0.5, 0, "regressed"],
    [0, 0.5, "improved"],
  ])("prev hard %s, curr hard %s → %s", (p, c, category) => {
    expect(buildPair(item, traj(p), traj(c)).category).toBe(category);
  });

  it("records both sides and renders the trajectories without non-object entries", () => {
    const pair = buildPair(item, traj(1), traj(0));
    expect(pair).toMatchObject({
      id: "i1",
      task: "What?",
      prev: { hard: 1, soft: 1, predicted_answer: "right", fail_reason: "" },
      curr: { hard: 0, soft: 0.25, predicted_answer: "wrong", fail_reason: "EM=0: wrong" },
    });
    expect(pair.prev_trajectory).toBe("[assistant] said something");
    expect(slim([pair])).toEqual([
      { id: "i1", task: "What?", category: "regressed", prev: pair.prev, curr: pair.curr },
    ]);
  });

  it("uses placeholders for a missing row and an empty conversation", () => {
    const pair = buildPair(item, undefined, traj(0, { conversation: [], prediction: undefined }));
    expect(pair.prev).toEqual({ hard: 0, soft: 0, predicted_answer: "N/A", fail_reason: "" });
    expect(pair.prev_trajectory).toBe("(trajectory not available)");
    expect(pair.curr_trajectory).toBe("(empty trajectory)");
    expect(pair.curr.predicted_answer).toBe("N/A");
  });

  it("takes the task text from question, else task_description, else instruction, else the id", () => {
    expect(buildPair({ id: "a", task_description: "desc", instruction: "ins" }, undefined, undefined).task).toBe(
      "desc",
    );
    expect(buildPair({ id: "a", instruction: "ins" }, undefined, undefined).task).toBe("ins");
    expect(buildPair({ id: "a" }, undefined, undefined).task).toBe("a");
  });
});

describe("formatComparison", () => {
  const t = (id: string, hard: number, reason?: string, said = `said-${id}`): Trajectory => ({
    id,
    hard,
    soft: hard ? 1 : 0.25,
    status: "ok",
    prediction: hard ? `right-${id}` : `wrong-${id}`,
    failReason: reason,
    conversation: [{ role: "assistant", content: said }],
  });
  const pair = (id: string, p: number, c: number, pr?: string, cr?: string) =>
    buildPair({ id, question: `task ${id}` }, t(id, p, pr, `prev-${id}`), t(id, c, cr, `curr-${id}`));

  it("puts regressions first, then persistent failures, improvements and stable successes", () => {
    const text = formatComparison([
      pair("s", 1, 1),
      pair("i", 0, 1, "EM=0: was wrong"),
      pair("p", 0, 0, "EM=0: still wrong before", "EM=0: still wrong now"),
      pair("r", 1, 0, "stale reason", "EM=0: broke"),
    ]);
    const first = text.split("\n")[0]!;
    expect(first).toMatch(/4\b/);
    expect(first).toMatch(/improved: 1/);
    expect(first).toMatch(/regressed: 1/);
    const order = ["Task r:", "Task p:", "Task i:", "Task s:"].map((m) => text.indexOf(m));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(/Regression[^\n]*highest priority/);
    expect(text).not.toContain("(none)");
    // Regressed: PASS → FAIL with the current reason; the previous reason only when the previous run failed.
    const r = text.slice(text.indexOf("Task r:"), text.indexOf("Task p:"));
    expect(r).toContain("PASS (soft 1.00)");
    expect(r).toContain("FAIL (soft 0.25)");
    expect(r).toContain("wrong-r");
    expect(r).toContain("EM=0: broke");
    expect(r).not.toContain("stale reason");
    expect(r).toContain("prev-r");
    expect(r).toContain("curr-r");
    const p = text.slice(text.indexOf("Task p:"), text.indexOf("Task i:"));
    expect(p).toContain("EM=0: still wrong before");
    expect(p).toContain("EM=0: still wrong now");
    expect(p).toContain("prev-p");
    // Stable successes show no trajectories.
    const s = text.slice(text.indexOf("Task s:"));
    expect(s).not.toContain("prev-s");
    expect(s).not.toContain("curr-s");
    expect(s).not.toContain("```");
  });

  it("marks empty sections with (none)", () => {
    const text = formatComparison([pair("r", 1, 0, undefined, "EM=0: broke")]);
    expect(text.match(/\(none\)/g)).toHaveLength(3);
    expect(formatComparison([]).match(/\(none\)/g)).toHaveLength(4);
  });
});
