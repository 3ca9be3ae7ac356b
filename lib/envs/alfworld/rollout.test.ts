import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient } from "../test-helpers";
import { createAlfworldEnv } from "./index";
import { Limiter } from "./limiter";
import { ALFWORLD_SYSTEM_PROMPT, SKILL_HEADING } from "./prompt";
import { rolloutAlfworld } from "./rollout";
import { readAlfworldPrompt } from "./sim-responder";
import { generateGame } from "./sim/generate";
import { playToEnd } from "./sim/policy";

const ITEM: Item = { id: "g1", task_type: "pick_heat_then_place_in_recep", seed: 7 };
const GAME = generateGame(7, "pick_heat_then_place_in_recep");
const PLAN = playToEnd(GAME, null, 50).actions;

const userOf = (req: CompletionRequest) => req.messages[0]!.content as string;
const stepOf = (req: CompletionRequest) => readAlfworldPrompt(userOf(req)).step;
const reply = (action: string) => `<think>next move</think>\n<action>${action}</action>`;

function env(overrides: Record<string, unknown> = {}, vars: Record<string, string> = {}) {
  const config = buildRunConfig({ name: "alfworld", max_steps: 12, exec_timeout: 0, ...overrides });
  return createAlfworldEnv(config, { rootDir: process.cwd(), vars });
}

function roll(
  client: ReturnType<typeof fakeClient>,
  opts: { item?: Item; skill?: string; env?: ReturnType<typeof env> } = {},
) {
  return (opts.env ?? env()).rollout({
    item: opts.item ?? ITEM,
    skill: opts.skill ?? "- Heat before placing.",
    client,
    phase: "train",
    seed: 1,
    useEvalFeedback: true,
  });
}

describe("ALFWorld rollout", () => {
  it("wins with the expert's actions: hard = soft = 1, one call per step, prompts as specified", async () => {
    const client = fakeClient((req) => reply(PLAN[stepOf(req) - 1] ?? "look"));
    const t = await roll(client);
    expect(t).toMatchObject({
      hard: 1,
      soft: 1,
      status: "ok",
      nTurns: PLAN.length,
      taskType: "pick_heat_then_place_in_recep",
      taskDescription: GAME.task,
    });
    expect(t.failReason).toBeUndefined();
    expect(client.calls).toHaveLength(PLAN.length);
    const [first, second] = client.calls;
    expect(first!.system).toBe(ALFWORLD_SYSTEM_PROMPT);
    expect(t.targetSystemPrompt).toBe(ALFWORLD_SYSTEM_PROMPT);
    expect(userOf(first!).startsWith(`${SKILL_HEADING}\n`)).toBe(true);
    expect(userOf(first!)).toContain("- Heat before placing.");
    expect(userOf(first!)).toContain(`Your task is to: ${GAME.task}`);
    expect(userOf(first!)).toContain("## Admissible Actions\n'go to");
    expect(userOf(second!)).toContain("## Task\nYour task is to: ");
    expect(userOf(second!)).toContain(`[Observation 1: '`);
    expect(userOf(second!)).toContain(`Action 1: '${PLAN[0]}']`);
    expect(userOf(second!)).toContain("## Current Step\nStep 2.");
    const steps = t.conversation.filter((e) => typeof e === "object" && "env_feedback" in (e as object));
    expect(steps).toHaveLength(PLAN.length);
    expect(steps[0]).toMatchObject({ step: 1, action: PLAN[0], reasoning: "next move", reward: 0, done: false });
    expect(t.conversation.at(-1)).toMatchObject({
      role: "system",
      content: expect.stringContaining("[EVALUATION RESULT]"),
    });
    expect(t.referenceText).toContain(`1. ${PLAN[0]}`);
  });

  it("is deterministic: the same item and replies give the same trajectory", async () => {
    const script = (req: CompletionRequest) =>
      reply(stepOf(req) % 3 === 0 ? "look" : (PLAN[stepOf(req) - 1] ?? "inventory"));
    const a = await roll(fakeClient(script));
    const b = await roll(fakeClient(script));
    expect(b).toEqual(a);
    expect(a.hard).toBe(0);
  });

  it("shows only the last two observation/action pairs", async () => {
    const client = fakeClient(() => reply("look"));
    await roll(client);
    const fifth = userOf(client.calls[4]!);
    expect(fifth).toContain("You have taken 4 step(s) so far.");
    expect(fifth).toContain("[Observation 3: '");
    expect(fifth).toContain("[Observation 4: '");
    expect(fifth).not.toContain("[Observation 2: '");
  });

  it("a blank skill adds no Skill Knowledge section", async () => {
    const client = fakeClient(() => reply("look"));
    await roll(client, { skill: "  \n" });
    expect(userOf(client.calls[0]!).startsWith("## Current Observation")).toBe(true);
  });

  it("times out after max_steps with a reason naming what went wrong", async () => {
    const t = await roll(fakeClient(() => reply("look")));
    expect(t).toMatchObject({ hard: 0, soft: 0, status: "ok", nTurns: 12 });
    expect(t.failReason).toMatch(/^Timeout after 12 steps: /);
    expect(t.failReason).toContain("repeated 'look' (12 times at the end)");
    expect(t.failReason).toContain("never found a");
  });

  it("an inadmissible action reads 'Nothing happens.' and is named in the failure reason", async () => {
    const t = await roll(fakeClient(() => reply("fly to the moon")));
    const step = t.conversation.find((e) => typeof e === "object" && (e as Record<string, unknown>).step === 1);
    expect(step).toMatchObject({ action: "fly to the moon", env_feedback: "Nothing happens." });
    expect(t.failReason).toContain("last inadmissible action: 'fly to the moon'");
    expect(t.extras).toMatchObject({ inadmissible_actions: 12 });
  });

  it("a reply without an action tag runs 'look' and is flagged; CJK or a missing think is flagged but executed", async () => {
    const client = fakeClient((req, i) =>
      i === 0
        ? "I will go to the fridge"
        : i === 1
          ? `<action>${PLAN[0]}</action>`
          : "<think>想一想</think><action>look</action>",
    );
    const t = await roll(client);
    const steps = t.conversation.filter((e) => typeof e === "object" && "env_feedback" in (e as object)) as Array<
      Record<string, unknown>
    >;
    expect(steps[0]).toMatchObject({
      action: "look",
      format_problem: expect.stringContaining("substituted 'look'"),
      model_response: "I will go to the fridge",
    });
    expect(steps[1]).toMatchObject({ action: PLAN[0], format_problem: "no <think> tag" });
    expect(steps[2]).toMatchObject({ action: "look", format_problem: "contains CJK characters" });
    expect(t.extras).toMatchObject({ invalid_replies: 12 });
  });

  it("three failed target calls in a row end the episode as an error with the reason, never a silent 0", async () => {
    const client = fakeClient(() => new Error("503 upstream unavailable"));
    const t = await roll(client);
    expect(client.calls).toHaveLength(3);
    expect(t.status).toBe("error");
    expect(t.hard).toBe(0);
    expect(t.failReason).toMatch(
      /^error: 503 upstream unavailable \(3 target calls in a row failed at step 3; episode stopped\)/,
    );
    expect(t.conversation.at(-1)).toMatchObject({ role: "system", content: expect.stringContaining("not scored") });
  });

  it("a call that hangs past exec_timeout counts as a timeout", async () => {
    const t = await roll(
      fakeClient(() => "hang"),
      { env: env({ exec_timeout: 0.001 }) },
    );
    expect(t.status).toBe("timeout");
    expect(t.failReason).toContain("timeout: no answer within");
  }, 10_000);

  it("a failed call is replaced by 'look': recovering still wins (ok), losing becomes an error", async () => {
    // The failed first call took a step ('look'), so the expert's plan runs one step behind.
    const recover = fakeClient((req, i) =>
      i === 0 ? new Error("connection reset") : reply(PLAN[stepOf(req) - 2] ?? "look"),
    );
    const ok = await roll(recover);
    expect(ok).toMatchObject({ hard: 1, status: "ok", extras: { target_call_failures: 1 } });
    const lost = await roll(fakeClient((_, i) => (i === 0 ? new Error("connection reset") : reply("look"))));
    expect(lost.status).toBe("error");
    expect(lost.failReason).toMatch(
      /^error: connection reset \(1 of 12 target calls failed and were replaced by 'look'\) \| Timeout after 12 steps/,
    );
  });

  it("bad items become error trajectories naming the problem", async () => {
    const client = fakeClient(() => reply("look"));
    const badType = await roll(client, { item: { id: "x", task_type: "juggle", seed: 1 } });
    expect(badType).toMatchObject({
      status: "error",
      failReason: "error: task_type 'juggle' is not one of the six ALFWorld task types",
    });
    const noGame = await roll(client, {
      item: { id: "y", task_type: "pick_and_place_simple", seed: 1 },
      env: env({ simulator: "alfworld" }),
    });
    expect(noGame.failReason).toBe("error: env.simulator is alfworld but the item has no 'gamefile'");
    const noData = await roll(client, {
      item: { id: "z", gamefile: "json_2.1.1/x/game.tw-pddl", task_type: "other" },
      env: env({ simulator: "alfworld" }),
    });
    expect(noData.failReason).toMatch(/^error: ALFWORLD_DATA is not set/);
    expect(client.calls).toHaveLength(0);
  });

  it("plays an original {id, gamefile, task_type} item on the built-in simulator with a stable seed", async () => {
    const item = {
      id: "train:0001",
      gamefile: "json_2.1.1/train/pick_and_place_simple-Mug-None-Shelf-1/trial_1/game.tw-pddl",
      task_type: "pick_and_place_simple",
    };
    const a = await roll(
      fakeClient(() => reply("look")),
      { item },
    );
    const b = await roll(
      fakeClient(() => reply("look")),
      { item },
    );
    expect(a.status).toBe("ok");
    expect(a.taskDescription).toBe(b.taskDescription);
  });

  it("keeps at most max_api_workers target calls in flight across games", async () => {
    let inFlight = 0;
    let peak = 0;
    const client = fakeClient(() => reply("look"));
    const slow = {
      ...client,
      complete: async (req: CompletionRequest) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight -= 1;
        return client.complete(req);
      },
    };
    const e = env({ max_api_workers: 2, max_steps: 3 });
    await Promise.all(
      [1, 2, 3, 4].map((seed) =>
        e.rollout({
          item: { id: String(seed), task_type: "pick_and_place_simple", seed },
          skill: "",
          client: slow,
          phase: "train",
          seed: 1,
          useEvalFeedback: false,
        }),
      ),
    );
    expect(peak).toBe(2);
  });

  it("rethrows when the run is cancelled", async () => {
    const ctl = new AbortController();
    ctl.abort(new Error("run cancelled"));
    const run = {
      config: buildRunConfig({ name: "alfworld" }),
      maxSteps: 3,
      limiter: new Limiter(1),
      games: { simulator: "builtin" as const, rootDir: ".", vars: {}, bridgeTimeoutMs: 1000 },
    };
    await expect(
      rolloutAlfworld(run, {
        item: ITEM,
        skill: "",
        client: fakeClient(() => "hang"),
        phase: "test",
        seed: 1,
        useEvalFeedback: false,
        signal: ctl.signal,
      }),
    ).rejects.toThrow("run cancelled");
  });
});
