/**
 * One DocVQA rollout: a multimodal target call (question text + the page image), with "look again"
 * turns while the reply has no `<answer>` tag and `env.max_turns` allows, scored by ANLS. Never throws
 * for a bad item, a missing image or a failed call; only a cancelled run rejects.
 */
import path from "node:path";
import type { RunConfig } from "../../contracts/run-config";
import type { ChatContentPart, ChatMessage, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { formatList, hasAnswerTag } from "../common/answer";
import { callTarget } from "../common/target-call";
import { extractDocVqaAnswer, scoreDocVqa } from "./evaluate";
import { readDocumentImage, type ImageRoots } from "./image";
import { DEFAULT_TASK_TYPE, missingDocVqaField, type DocVqaItem } from "./normalise";
import { buildDocVqaSystemPrompt, buildDocVqaUserText, buildLookAgainPrompt } from "./prompt";
import { errorTrajectory } from "../common/error-trajectory";

/** `env.image_detail`: how much resolution the provider should spend on the image. */
export type ImageDetail = "auto" | "low" | "high";

/** What a rollout needs besides the item: the run config and where relative image paths resolve. */
export interface DocVqaRolloutContext {
  config: RunConfig;
  rootDir: string;
}

function imageDetailOf(config: RunConfig): ImageDetail {
  const v = (config.env as Record<string, unknown>).image_detail;
  return v === "low" || v === "high" ? v : "auto";
}

function rootsFor(item: Record<string, unknown>, ctx: DocVqaRolloutContext): ImageRoots {
  const splitDir = ctx.config.env.split_dir.trim();
  return {
    sourceDir: typeof item.source_dir === "string" ? item.source_dir : undefined,
    splitDir: splitDir === "" ? undefined : path.resolve(ctx.rootDir, splitDir),
    rootDir: ctx.rootDir,
  };
}

/** Runs one item with the skill and returns its scored trajectory. */
export async function rolloutDocVqa(ctx: DocVqaRolloutContext, input: RolloutInput): Promise<Trajectory> {
  const { item } = input;
  const { config } = ctx;
  const question = typeof item.question === "string" ? item.question : "";
  const taskType = typeof item.task_type === "string" && item.task_type !== "" ? item.task_type : DEFAULT_TASK_TYPE;
  const base = { id: item.id, taskType, taskDescription: question, question };
  const missing = missingDocVqaField(item);
  if (missing !== null) return errorTrajectory(base, `item is missing field '${missing}'`);
  const doc = item as DocVqaItem;
  const image = await readDocumentImage(doc.image_path, rootsFor(doc, ctx));
  if (!image.ok) return errorTrajectory(base, image.reason);

  const detail = imageDetailOf(config);
  const text = buildDocVqaUserText(doc.question);
  const imagePart: ChatContentPart = {
    type: "image", mediaType: image.mediaType, dataBase64: image.dataBase64, ...(detail !== "auto" ? { detail } : {}),
  };
  const system = buildDocVqaSystemPrompt(input.skill);
  const messages: ChatMessage[] = [{ role: "user", content: [{ type: "text", text }, imagePart] }];
  // The trajectory names the image instead of carrying its bytes.
  const conversation: ConversationEntry[] = [
    { role: "user", content: [{ type: "text", text }, { type: "image", mediaType: image.mediaType, path: image.file }] },
  ];
  const usage = { latencyMs: 0, promptTokens: 0, completionTokens: 0 };
  const maxTurns = Math.max(1, config.env.max_turns);
  let reply = "";
  let turns = 0;
  while (turns < maxTurns) {
    if (turns > 0) {
      const again = buildLookAgainPrompt(extractDocVqaAnswer(reply));
      messages.push({ role: "user", content: again });
      conversation.push({ role: "user", content: again });
    }
    const outcome = await callTarget({
      client: input.client,
      request: {
        role: "target", stage: "rollout", system, messages: [...messages],
        maxTokens: config.env.max_completion_tokens,
        reasoningEffort: config.model.reasoning_effort || null,
      },
      timeoutSec: config.env.exec_timeout,
      signal: input.signal,
    });
    if (!outcome.ok) {
      return { ...base, ...usage, hard: 0, soft: 0, status: outcome.status, failReason: outcome.failReason, conversation, nTurns: turns };
    }
    turns += 1;
    reply = outcome.result.text;
    usage.latencyMs += outcome.result.latencyMs;
    usage.promptTokens += outcome.result.usage.promptTokens;
    usage.completionTokens += outcome.result.usage.completionTokens;
    messages.push({ role: "assistant", content: reply });
    conversation.push({ role: "assistant", content: reply });
    if (hasAnswerTag(reply)) break;
  }
  const score = scoreDocVqa(reply, doc.answers);
  conversation.push({
    role: "system",
    content:
      `[EVALUATION RESULT] question: ${doc.question} | predicted: ${score.prediction} | gold: ${formatList(doc.answers)}` +
      ` | ANLS=${score.soft.toFixed(3)}, exact=${score.hard}`,
  });
  return {
    ...base, ...usage,
    hard: score.hard, soft: score.soft, status: "ok",
    prediction: score.prediction, reference: doc.answers.join(" | "),
    ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
    conversation, nTurns: turns,
    extras: { image_path: image.file, anls: score.soft },
  };
}
