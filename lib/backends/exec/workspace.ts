/**
 * Turns one target request into files: the skill (the `## Skill` section of the system prompt)
 * becomes `.agents/skills/skillopt-target/SKILL.md`, the rest of the system prompt plus the conversation
 * becomes `task.md`, and each image becomes a file under `attachments/` listed in `ATTACHMENTS.md`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ChatContentPart, ChatMessage, CompletionRequest } from "../../engine/ports";
import { SKILL_HEADING, splitSkillSection } from "../../contracts/target-skill";
import { ATTACHMENTS_REL_PATH, SKILL_REL_PATH, TASK_REL_PATH, type Workspace } from "./types";

/** The line that opens the skill section (the envs' `SKILL_HEADING`). */
export const SKILL_HEADING_LINE = SKILL_HEADING;

/** Written instead of an empty skill so the agent still finds a valid skill file. */
export const BLANK_SKILL_NOTE = "No guidance has been learned yet. Solve the task with your own judgement.";

/**
 * Splits a system prompt into the skill (its `## Skill` … `## End of Skill` section, wherever the
 * benchmark puts it) and the task instructions around it. Without a skill section the whole prompt is
 * instructions.
 */
export function splitSkill(system: string): { instructions: string; skill: string } {
  return splitSkillSection(system);
}

/** SKILL.md: agent-skill front matter, then the skill text unchanged (or a note when it is blank). */
export function renderSkillFile(skill: string): string {
  const body = skill.trim() === "" ? BLANK_SKILL_NOTE : skill;
  const front = [
    "---",
    "name: skillopt-target",
    'description: "Learned guidance for the benchmark task in task.md. Read it before answering."',
    "---",
    "",
    "",
  ].join("\n");
  return `${front}${body.endsWith("\n") ? body : `${body}\n`}`;
}

/** The skill text inside a SKILL.md written by `renderSkillFile` (for tests and trace checks). */
export function skillBodyOf(file: string): string {
  const m = /^---\n[\s\S]*?\n---\n\n/.exec(file);
  return m ? file.slice(m[0].length) : file;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

type Image = Extract<ChatContentPart, { type: "image" }>;

/** A file's base name reduced to safe characters (no folders, no leading dots). */
function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  return base
    .replace(/[^\w.-]+/g, "_")
    .replace(/^\.+/, "")
    .slice(0, 80);
}

function messageText(msg: ChatMessage, images: Image[], names: string[]): string {
  if (typeof msg.content === "string") return msg.content;
  return msg.content
    .map((part) => {
      if (part.type === "text") return part.text;
      images.push(part);
      const base = part.name ? safeFileName(part.name) : "";
      const name = `attachments/${String(images.length).padStart(2, "0")}_${base || `image.${EXTENSIONS[part.mediaType] ?? "bin"}`}`;
      names.push(name);
      return `[image: ${name}]`;
    })
    .join("\n");
}

/** task.md and the images it refers to, from the instructions and the conversation. */
export function renderTask(
  instructions: string,
  messages: ChatMessage[],
): { task: string; images: Image[]; names: string[] } {
  const images: Image[] = [];
  const names: string[] = [];
  const parts = ["# Task", "", instructions.trim() === "" ? "(no separate instructions)" : instructions.trim(), ""];
  const single = messages.length === 1 && messages[0]!.role === "user";
  if (single) {
    parts.push("## Input", "", messageText(messages[0]!, images, names).trim());
  } else {
    parts.push("## Conversation so far", "");
    for (const msg of messages) {
      parts.push(
        msg.role === "user" ? "### User" : "### Assistant (your earlier reply)",
        "",
        messageText(msg, images, names).trim(),
        "",
      );
    }
    parts.push("Answer the last user message.");
  }
  return { task: `${parts.join("\n").trimEnd()}\n`, images, names };
}

function renderAttachmentList(names: string[], images: Image[]): string {
  const rows = names.map((n, i) => `- ${n} (${images[i]!.mediaType})`);
  return [
    "# Attachments",
    "",
    "Files that belong to the task, in the order task.md mentions them:",
    "",
    ...rows,
    "",
  ].join("\n");
}

/** Creates a fresh workspace under `root` (default: the OS temp folder) holding the request's files. */
export async function createWorkspace(req: CompletionRequest, root?: string): Promise<Workspace> {
  const dir = await mkdtemp(join(root ?? tmpdir(), "skillopt-exec-"));
  try {
    const { instructions, skill } = splitSkill(req.system);
    const { task, images, names } = renderTask(instructions, req.messages);
    const skillPath = join(dir, SKILL_REL_PATH);
    await mkdir(dirname(skillPath), { recursive: true });
    await writeFile(skillPath, renderSkillFile(skill));
    await writeFile(join(dir, TASK_REL_PATH), task);
    if (images.length > 0) {
      await mkdir(join(dir, "attachments"));
      for (const [i, img] of images.entries())
        await writeFile(join(dir, names[i]!), Buffer.from(img.dataBase64, "base64"));
      await writeFile(join(dir, ATTACHMENTS_REL_PATH), renderAttachmentList(names, images));
    }
    return { dir, attachments: names };
  } catch (err) {
    await removeWorkspace(dir);
    throw err;
  }
}

/** Deletes a workspace; a folder that is already gone is fine. */
export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 2 });
}
