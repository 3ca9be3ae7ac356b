/**
 * Deterministic edit application (spec §7.7.1). Edits apply one after another to the evolving document,
 * each yielding one report row. Expected problems (missing target, protected target, unknown op) are
 * report statuses, never exceptions; malformed edits become "error" rows and leave the document as is.
 */
import { pyPrefix, pyRstrip, pyStrip } from "./py-format";
import { protectedRegions, scrubMarkers } from "./protected";
import type { EditApplyStatus, EditReportRow } from "./types";

const PREVIEW_CHARS = 200;

class MalformedEditError extends Error {}

/**
 * A missing field counts as ""; any non-string value, JSON null included, makes the edit malformed (the
 * original fails on `None.strip()` / `None[:200]` and records an error row, whatever the op).
 */
function stringField(edit: Record<string, unknown>, key: string): string {
  const v = edit[key];
  if (v === undefined) return "";
  if (typeof v !== "string") throw new MalformedEditError(`edit field "${key}" must be a string, got ${describe(v)}`);
  return v;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return "array";
  return v === null ? "null" : typeof v;
}

function cleanContent(raw: string): string {
  // Trim first, then scrub, in the order spec §7.7.1 lists: content that is only a marker plus text
  // may keep the whitespace that sat next to the marker.
  return scrubMarkers(pyStrip(raw));
}

function isInsideProtected(doc: string, target: string): boolean {
  if (target === "") return false;
  const at = doc.indexOf(target);
  if (at < 0) return false;
  return protectedRegions(doc).some(([start, end]) => start <= at && at < end);
}

/** Append below the body but above the earliest protected region, if any. */
function appendContent(doc: string, content: string): { doc: string; beforeProtected: boolean } {
  const regions = protectedRegions(doc);
  if (regions.length === 0) return { doc: `${pyRstrip(doc)}\n\n${content}\n`, beforeProtected: false };
  const start = Math.min(...regions.map(([s]) => s));
  const before = doc.slice(0, start);
  const after = doc.slice(start);
  return { doc: `${pyRstrip(before)}\n\n${content}\n\n${after}`, beforeProtected: true };
}

type Applied = { doc: string; status: EditApplyStatus };

function applyOp(doc: string, op: unknown, target: string, content: string): Applied {
  switch (op) {
    case "append": {
      const r = appendContent(doc, content);
      return { doc: r.doc, status: r.beforeProtected ? "applied_append_before_protected_region" : "applied_append" };
    }
    case "insert_after": {
      const at = target === "" ? -1 : doc.indexOf(target);
      if (at < 0) {
        const r = appendContent(doc, content);
        return {
          doc: r.doc,
          status: r.beforeProtected
            ? "applied_insert_after_fallback_before_protected_region"
            : "applied_insert_after_fallback_append",
        };
      }
      const nl = doc.indexOf("\n", at + target.length);
      const p = nl < 0 ? doc.length : nl + 1;
      return { doc: `${doc.slice(0, p)}\n${content}\n${doc.slice(p)}`, status: "applied_insert_after" };
    }
    case "replace":
    case "delete": {
      const verb = op;
      if (target === "") return { doc, status: `skipped_${verb}_missing_target` };
      const at = doc.indexOf(target);
      if (at < 0) return { doc, status: `skipped_${verb}_target_not_found` };
      // Slicing, not String.replace: content may contain "$&"-style patterns.
      const replacement = verb === "replace" ? content : "";
      return {
        doc: doc.slice(0, at) + replacement + doc.slice(at + target.length),
        status: verb === "replace" ? "applied_replace" : "applied_delete",
      };
    }
    default:
      return { doc, status: "skipped_unknown_op" };
  }
}

function errorRow(index: number, message: string): EditReportRow {
  return { index, op: "", target: "", content_preview: "", status: "error", error: message };
}

/** Apply `edits` in order to `skill`, returning the new document and one report row per edit. */
export function applyPatchWithReport(
  skill: string,
  edits: readonly unknown[],
): { skill: string; report: EditReportRow[] } {
  let doc = skill;
  const report: EditReportRow[] = [];
  edits.forEach((edit, i) => {
    const index = i + 1;
    if (edit === null || typeof edit !== "object" || Array.isArray(edit)) {
      report.push(errorRow(index, `edit must be an object, got ${describe(edit)}`));
      return;
    }
    const rec = edit as Record<string, unknown>;
    let op: unknown;
    let target: string;
    let content: string;
    try {
      op = rec.op ?? "";
      content = cleanContent(stringField(rec, "content"));
      target = stringField(rec, "target");
    } catch (err) {
      // Only MalformedEditError can reach here; it is recorded in the report, which is the point.
      if (!(err instanceof MalformedEditError)) throw err;
      report.push(errorRow(index, err.message));
      return;
    }
    const row: EditReportRow = {
      index,
      op: typeof op === "string" ? op : String(op),
      target: pyPrefix(target, PREVIEW_CHARS),
      content_preview: pyPrefix(content, PREVIEW_CHARS),
      status: "skipped_unknown_op",
    };
    if (isInsideProtected(doc, target)) {
      row.status = "skipped_protected_region";
    } else {
      const applied = applyOp(doc, op, target, content);
      doc = applied.doc;
      row.status = applied.status;
    }
    report.push(row);
  });
  return { skill: doc, report };
}

/** Counts for `edit_apply_summary` (spec §7.7): statuses are grouped by their prefix. */
export function summarizeApplyReport(report: readonly EditReportRow[]): {
  total: number;
  applied: number;
  skipped: number;
  errors: number;
} {
  let applied = 0;
  let skipped = 0;
  let errors = 0;
  for (const row of report) {
    if (row.status.startsWith("applied")) applied++;
    else if (row.status.startsWith("skipped")) skipped++;
    else if (row.status === "error") errors++;
  }
  return { total: report.length, applied, skipped, errors };
}
