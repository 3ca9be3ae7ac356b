/**
 * One DocVQA rollout: a multimodal target call (question text + the page image), with "look again"
 * turns while the reply has no `<answer>` tag and `env.max_turns` allows, scored by ANLS. Never throws
 * for a bad item, a missing image or a failed call; only a cancelled run rejects.
 */
import path from "node:path";
import type { RunConfig } from "../../contracts/run-config";
import type { ChatContentPart, RolloutInput } from "../../engine/ports";
import type { Trajectory } from "../../engine/types";
import { formatList, hasAnswerTag } from "../common/answer";
import { answerTurns, unansweredTrajectory } from "../common/answer-turns";
import { extractDocVqaAnswer, scoreDocVqa } from "./evaluate";
import type { PathGuard } from "../common/path-guard";
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
  /** The run's path guard (a dashboard run reads images only inside the allowed roots). */
  paths?: PathGuard;
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
    ...(ctx.paths ? { paths: ctx.paths } : {}),
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
    type: "image",
    mediaType: image.mediaType,
    dataBase64: image.dataBase64,
    name: path.basename(image.file),
    ...(detail !== "auto" ? { detail } : {}),
  };
  const system = buildDocVqaSystemPrompt(input.skill);
  // The analysts see the target's system prompt, as in the original.
  const prompted = { ...base, targetSystemPrompt: system };
  // The trajectory names the image instead of carrying its bytes.
  const run = await answerTurns({
    config,
    input,
    system,
    first: [{ type: "text", text }, imagePart],
    firstRecorded: {
      role: "user",
      content: [
        { type: "text", text },
        { type: "image", mediaType: image.mediaType, path: image.file },
      ],
    },
    maxTurns: config.env.max_turns,
    followUp: (reply) => buildLookAgainPrompt(extractDocVqaAnswer(reply)),
    isFinal: (reply) => hasAnswerTag(reply),
  });
  const { conversation, usage, turns } = run;
  if (!run.ok) return unansweredTrajectory(prompted, run);
  const { reply } = run;
  const score = scoreDocVqa(reply, doc.answers);
  conversation.push({
    role: "system",
    content:
      `[EVALUATION RESULT] question: ${doc.question} | predicted: ${score.prediction} | gold: ${formatList(doc.answers)}` +
      ` | ANLS=${score.soft.toFixed(3)}, exact=${score.hard}`,
  });
  return {
    ...prompted,
    ...usage,
    hard: score.hard,
    soft: score.soft,
    status: "ok",
    prediction: score.prediction,
    reference: doc.answers.join(" | "),
    ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
    conversation,
    nTurns: turns,
    extras: { image_path: image.file, anls: score.soft },
  };
}
