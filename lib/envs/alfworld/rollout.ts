/**
 * One ALFWorld episode: up to `max_steps` target calls, each answered with `<think>` and `<action>`;
 * the action runs in the game (a missing one becomes "look"), and the episode ends when the game is
 * won. hard = soft = won. A lost episode's failure reason says how it ended plus what went wrong.
 * Model-call failures never hide as a plain loss: a failed call is replaced by "look", three in a row
 * stop the episode, and a lost episode with any failed call has status error (or timeout).
 */
import type { RunConfig } from "../../contracts/run-config";
import type { RolloutInput } from "../../engine/ports";
import type { Trajectory } from "../../engine/types";
import { callRolloutTarget } from "../common/target-call";
import { failed, MAX_CONSECUTIVE_CALL_FAILURES, newEpisode, score, type Episode } from "./episode";
import { resolveGame, type GameContext } from "./games";
import type { Limiter } from "./limiter";
import {
  ALFWORLD_SYSTEM_PROMPT,
  firstStepPrompt,
  historyStepPrompt,
  parseReply,
  skillSection,
  taskFromObservation,
  type HistoryPair,
} from "./prompt";
import type { GameSession, StepResult } from "./session";
import type { Game } from "./sim/generate";
import { playToEnd } from "./sim/policy";
import { trajDataReference } from "./reference";

/** What a rollout needs from its environment. */
export interface AlfworldRollout {
  config: RunConfig;
  games: GameContext;
  maxSteps: number;
  limiter: Limiter;
}

/** Runs one item with the skill and returns its scored trajectory; never throws for a bad game or model. */
export async function rolloutAlfworld(run: AlfworldRollout, input: RolloutInput): Promise<Trajectory> {
  const { item } = input;
  const taskType = typeof item.task_type === "string" ? item.task_type : "other";
  const base = { id: item.id, taskType, targetSystemPrompt: ALFWORLD_SYSTEM_PROMPT };
  const resolved = resolveGame(item, run.games);
  if (!resolved.ok) return failed(base, { status: "error", failReason: `error: ${resolved.reason}` });
  const { session } = resolved;
  let first: StepResult;
  try {
    first = await session.reset();
  } catch (err) {
    await session.close();
    return failed(base, { status: "error", failReason: `error: ${message(err)}` });
  }
  const task = taskFromObservation(first.observation);
  const reference = resolved.game
    ? referencePlan(resolved.game, run.maxSteps)
    : resolved.gamePath
      ? trajDataReference(resolved.gamePath)
      : undefined;
  const withTask = {
    ...base,
    taskDescription: task,
    question: task,
    ...(reference ? { referenceText: reference } : {}),
  };
  const ep = newEpisode(first);
  try {
    await play(run, input, { session, first, task, ep });
  } catch (err) {
    if (input.signal?.aborted) throw err;
    if ((err as { stopRun?: unknown }).stopRun) throw err;
    return failed(withTask, { status: "error", failReason: `error: ${message(err)} (at step ${ep.steps + 1})`, ep });
  } finally {
    await session.close();
  }
  return score({ maxSteps: run.maxSteps, simulator: run.games.simulator }, { item, base: withTask, ep, session });
}

interface PlayState {
  session: GameSession;
  first: StepResult;
  task: string;
  ep: Episode;
}

async function play(run: AlfworldRollout, input: RolloutInput, { session, first, task, ep }: PlayState) {
  let current = first;
  const history: HistoryPair[] = [];
  while (!ep.won && !ep.done && ep.steps < run.maxSteps) {
    const prompt =
      ep.steps === 0
        ? firstStepPrompt(current.observation, current.admissible)
        : historyStepPrompt({
            task,
            stepsTaken: ep.steps,
            history,
            observation: current.observation,
            admissible: current.admissible,
          });
    const user = skillSection(input.skill) + prompt;
    ep.calls += 1;
    const outcome = await run.limiter.run(() =>
      callRolloutTarget({
        client: input.client,
        signal: input.signal,
        config: run.config,
        system: ALFWORLD_SYSTEM_PROMPT,
        messages: [{ role: "user", content: user }],
      }),
    );
    const entry: Record<string, unknown> = { step: ep.steps + 1 };
    let action = "look";
    if (outcome.ok) {
      const { text, latencyMs, usage } = outcome.result;
      ep.latencyMs += latencyMs;
      ep.promptTokens += usage.promptTokens;
      ep.completionTokens += usage.completionTokens;
      const reply = parseReply(text);
      if (reply.action) action = reply.action;
      entry.reasoning = reply.reasoning;
      if (!reply.valid) {
        ep.invalidReplies += 1;
        entry.format_problem = reply.action ? reply.problem : `${reply.problem ?? "no action"}; substituted 'look'`;
        entry.model_response = text.slice(0, 2000);
      }
      ep.consecutiveFailures = 0;
    } else {
      ep.failedCalls += 1;
      ep.lastFailure = outcome;
      ep.consecutiveFailures += 1;
      if (ep.consecutiveFailures >= MAX_CONSECUTIVE_CALL_FAILURES) {
        ep.stoppedByFailures = true;
        return;
      }
      entry.reasoning = `[target call failed: ${outcome.failReason}; substituted 'look']`;
    }
    const result = await session.step(action);
    ep.steps += 1;
    history.push({ observation: current.observation, action });
    ep.trace.push({ action, feedback: result.observation });
    if (result.observation.trim() === "Nothing happens.") ep.inadmissible += 1;
    Object.assign(entry, {
      action,
      env_feedback: result.observation,
      reward: result.won ? 1 : 0,
      done: result.done || result.won,
    });
    ep.conversation.push(entry);
    ep.won = result.won;
    ep.done = result.done;
    current = result;
  }
}

/** The hidden reference for the analyst: the scripted expert's plan for a built-in game. */
function referencePlan(game: Game, maxSteps: number): string {
  const played = playToEnd(game, null, maxSteps);
  const lines = played.actions.map((a, i) => `${i + 1}. ${a}`);
  return `## Reference plan (scripted expert, ${played.won ? "wins" : "does not finish"} in ${played.actions.length} steps)\n${lines.join("\n")}`;
}

function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").trim() || "unknown error";
}
