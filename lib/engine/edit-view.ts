/**
 * The dashboard/event view of update items: one shape for edits, suggestions and skill candidates.
 */
import type { EditView } from "../contracts/events";
import type { UpdateItem, UpdateMode } from "./types";

const text = (v: unknown): string | undefined =>
  typeof v === "string" ? v : v === undefined || v === null ? undefined : JSON.stringify(v);

function origin(v: unknown): EditView["origin"] {
  return v === "success" || v === "mixed" ? v : "failure";
}

export function editView(item: UpdateItem, mode: UpdateMode): EditView {
  const view: EditView = { origin: origin(item.source_type), op: "" };
  if (mode === "patch") {
    view.op = text(item.op) ?? "";
    view.target = text(item.target);
    view.content = text(item.content);
    view.rationale = text(item.rationale ?? item.reason);
  } else if (mode === "rewrite_from_suggestions") {
    view.op = text(item.type) ?? "suggestion";
    view.target = text(item.title);
    view.content = text(item.instruction);
    view.rationale = text(item.motivation);
  } else {
    view.op = "rewrite";
    view.target = text(item.title);
    view.content = text(item.new_skill);
    view.rationale = Array.isArray(item.change_summary) ? item.change_summary.map(String).join("\n") : undefined;
  }
  if (typeof item.support_count === "number") view.support = item.support_count;
  if (typeof item.merge_level === "number") view.mergeLevel = item.merge_level;
  for (const k of Object.keys(view) as Array<keyof EditView>) if (view[k] === undefined) delete view[k];
  return view;
}

export function editViews(items: readonly UpdateItem[], mode: UpdateMode): EditView[] {
  return items.map((it) => editView(it, mode));
}
