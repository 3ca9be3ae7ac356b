import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stateDirOf } from "./config";
import { SleepState } from "./state";
import { sleepStatus } from "./status";
import { removeTempDirs, sandbox, testConfig } from "./test-helpers";

afterAll(removeTempDirs);

describe("sleepStatus", () => {
  it("names the project's handoff night waiting for answers, and only that project's", () => {
    const s = sandbox();
    const cfg = testConfig(s);
    expect(sleepStatus(cfg).handoffWaiting).toBeNull();
    const state = SleepState.load(stateDirOf(cfg));
    const waiting = {
      project: s.project,
      night: 3,
      handoffDir: join(s.project, ".skillopt-sleep-handoff"),
      promptsPath: join(s.project, ".skillopt-sleep-handoff", "PROMPTS.md"),
      answersDir: join(s.project, ".skillopt-sleep-handoff", "answers"),
      pending: 2,
      since: "2024-05-01T03:00:00",
    };
    state.setHandoffWaiting(s.project, waiting);
    state.setHandoffWaiting("/elsewhere", { ...waiting, project: "/elsewhere", night: 9 });
    state.save();
    expect(sleepStatus(cfg).handoffWaiting).toEqual(waiting);
    const again = SleepState.load(stateDirOf(cfg));
    again.setHandoffWaiting(s.project, null);
    again.save();
    expect(sleepStatus(cfg).handoffWaiting).toBeNull();
    expect(SleepState.load(stateDirOf(cfg)).handoffWaitingFor("/elsewhere")).toMatchObject({ night: 9 });
  });
});
