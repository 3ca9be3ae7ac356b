/**
 * The fixed instructions an agent CLI receives on stdin. The task itself is in task.md and the learned
 * guidance in the skill file; this prompt only says where they are and how to reply.
 */
import { ATTACHMENTS_REL_PATH, SKILL_REL_PATH, TASK_REL_PATH, type ExecSandbox } from "./types";

export interface ExecPromptOptions {
  sandbox: ExecSandbox;
  hasAttachments: boolean;
  /** 0 for the first run; n > 0 for the n-th retry after an empty answer. */
  retry: number;
}

/** Opening sentence of every retry prompt (the fake CLIs look for it). */
export const EMPTY_RETRY_NOTICE = "Your previous attempt ended with an empty final response.";

export function buildExecPrompt(o: ExecPromptOptions): string {
  const lines: string[] = [];
  if (o.retry > 0) {
    lines.push(
      `${EMPTY_RETRY_NOTICE} Do the task again and make sure your last message contains the final answer.`,
      "",
    );
  }
  lines.push(
    "You are solving one benchmark task in the current working directory.",
    "",
    `1. Read ${TASK_REL_PATH}: it holds the complete task and the answer format it expects.`,
    `2. Read ${SKILL_REL_PATH} and apply its guidance. Open that file directly; do not invoke a "Skill" tool.`,
  );
  if (o.hasAttachments) {
    lines.push(
      `3. ${ATTACHMENTS_REL_PATH} lists files that belong to the task (such as images); open them when they help.`,
    );
  }
  lines.push(
    "",
    "Work on your own: do not ask for permission or confirmation, nobody will answer.",
    o.sandbox === "read-only"
      ? "Do not create, modify or delete any file."
      : "Create or modify files only inside this directory, and only when the task asks for it.",
    "When you are done, reply with only the final answer, in exactly the format task.md asks for",
    "(for example inside <answer></answer> tags), without any other commentary.",
  );
  return `${lines.join("\n")}\n`;
}
