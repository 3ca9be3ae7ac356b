import { describe, expect, it } from "vitest";
import { formatTrajectory } from "./trajectory-format";
import type { Trajectory } from "./types";

const t: Trajectory = {
  id: "q1",
  hard: 0,
  soft: 0,
  status: "ok",
  question: "Who?",
  taskType: "qa",
  targetSystemPrompt: "You answer questions.\n\n## Skill\n- rule",
  conversation: [{ role: "assistant", content: "<answer>x</answer>" }],
};

describe("formatTrajectory", () => {
  it("shows the analysts the target's system prompt in deep mode only", () => {
    expect(formatTrajectory(t, 1, "deep")).toContain(
      "#### Target System Prompt\nYou answer questions.\n\n## Skill\n- rule",
    );
    expect(formatTrajectory(t, 1, "shallow")).not.toContain("Target System Prompt");
  });
});
