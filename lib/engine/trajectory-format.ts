/**
 * Renders trajectories as the analysts read them (spec §7.2). Deep mode (the original's) shows the whole
 * conversation and the hidden reference; shallow mode shows only the task, prediction, reference and
 * failure reason of each item, which costs far fewer tokens.
 */
import type { ConversationEntry, Trajectory } from "./types";

export type ReflectMode = "deep" | "shallow";

const str = (v: unknown): string =>
  v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);

/** One conversation entry → one or more lines. Nothing is truncated. */
export function renderEntry(entry: ConversationEntry, opts: { skipNonObjects?: boolean } = {}): string | null {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return opts.skipNonObjects ? null : `[agent] ${str(entry)}`;
  }
  const e = entry as Record<string, unknown>;
  if (e.type === "tool_call") return `[action] ${str(e.cmd ?? e.command)}\n[obs]    ${str(e.obs ?? e.observation)}`;
  if ("action" in e && "env_feedback" in e) {
    const n = str(e.step);
    const think = e.reasoning ? `[step ${n} think] ${str(e.reasoning)}\n` : "";
    return `${think}[step ${n} action] ${str(e.action)}\n[step ${n} obs]    ${str(e.env_feedback)}`;
  }
  if (e.role === "system") return `[verification] ${str(e.content)}`;
  return `[${str(e.role) || "agent"}] ${renderContent(e.content)}`;
}

function renderContent(content: unknown): string {
  if (!Array.isArray(content)) return str(content);
  // Multimodal message parts: show text, name images without their bytes.
  return content
    .map((p) => {
      const part = p as Record<string, unknown>;
      if (part && part.type === "text") return str(part.text);
      if (part && part.type === "image") return `[image ${str(part.mediaType)}]`;
      return str(p);
    })
    .join("\n");
}

export function renderConversation(conversation: ConversationEntry[], opts: { skipNonObjects?: boolean } = {}): string {
  return conversation
    .map((e) => renderEntry(e, opts))
    .filter((l): l is string => l !== null)
    .join("\n");
}

function subsection(title: string, body: string | undefined): string | null {
  return body && body.trim() ? `#### ${title}\n${body}` : null;
}

/** One trajectory block with its 1-based index, or null when it has no conversation to show. */
export function formatTrajectory(t: Trajectory, index: number, mode: ReflectMode): string | null {
  if (!t.conversation || t.conversation.length === 0) return null;
  const header = [
    `### Trajectory ${index} (id=${t.id})`,
    `Task: ${t.taskDescription ?? t.question ?? ""}`,
    `Task type: ${t.taskType ?? ""}`,
  ];
  if (t.status !== "ok") header.push(`Status: ${t.status}`);
  if (t.failReason) header.push(`Failure reason: ${t.failReason}`);
  if (t.prediction !== undefined) header.push(`Prediction: ${t.prediction}`);
  if (t.reference !== undefined) header.push(`Reference: ${t.reference}`);
  if (mode === "shallow") return header.join("\n");
  header.push(`Steps: ${t.nTurns ?? "?"}`);
  const extras = t.extras ?? {};
  const parts = [
    header.join("\n"),
    subsection("Hidden Reference", t.referenceText),
    subsection("Target System Prompt", t.targetSystemPrompt),
    subsection("Target User Prompt", t.targetUserPrompt),
    subsection(
      "Spreadsheet Preview",
      typeof extras.spreadsheet_preview === "string" ? extras.spreadsheet_preview : undefined,
    ),
  ].filter((p): p is string => p !== null);
  return `${parts.join("\n")}\n\n${renderConversation(t.conversation)}`;
}

/** The analyst input for one minibatch; "" when no item has a conversation. */
export function formatTrajectories(group: readonly Trajectory[], mode: ReflectMode): string {
  return group
    .map((t, i) => formatTrajectory(t, i + 1, mode))
    .filter((b): b is string => b !== null)
    .join("\n\n---\n\n");
}

/** A bounded plain-text view of a trajectory for events and the dashboard. */
export function trajectoryPreview(t: Trajectory, maxChars = 4000): string {
  const text = renderConversation(t.conversation);
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters)` : text;
}
