"use client";
import { useState, type ReactNode } from "react";
import { isApiError } from "@/components/api-client";
import { Button } from "@/components/ui/Button";
import { Notice } from "@/components/ui/Notice";
import {
  SLEEP_DASHBOARD_BACKENDS,
  SLEEP_TRANSCRIPT_SOURCES,
  type SleepProjectInput,
  type SleepProjectView,
} from "@/lib/contracts/sleep";
import { useSaveProject } from "./sleep-api";

const EMPTY: SleepProjectInput = {
  name: "",
  directory: "",
  transcriptSource: "claude",
  transcriptHome: "",
  targetSkillPath: "",
  tasksFile: "",
  backend: "mock",
  model: "",
  lookbackHours: 72,
  cronPattern: "",
  enabled: false,
};
const INPUT =
  "mt-1 w-full rounded-md border border-gray-300 px-2 py-1.5 text-sm shadow-xs focus:border-indigo-500 focus:outline-none";

function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <label className="block text-xs font-medium text-gray-700">
      {label}
      {children}
      {hint && !error && <span className="mt-0.5 block font-normal text-gray-500">{hint}</span>}
      {error && (
        <span className="mt-0.5 block font-normal text-red-700" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}

/** Create or edit a Sleep project; the server's refusal is shown under the field it names. */
export function ProjectForm({ project, onDone }: { project: SleepProjectView | null; onDone: () => void }) {
  const [v, setV] = useState<SleepProjectInput>(project ? { ...EMPTY, ...pick(project) } : EMPTY);
  const save = useSaveProject(project?.id ?? null);
  const err = save.error;
  const fieldError = (f: keyof SleepProjectInput) => (isApiError(err) && err.field === f ? err.message : undefined);
  const general = err && !(isApiError(err) && err.field && err.field in EMPTY) ? err.message : null;
  const set =
    <K extends keyof SleepProjectInput>(k: K) =>
    (value: SleepProjectInput[K]) =>
      setV((prev) => ({ ...prev, [k]: value }));
  const text = (
    k: "name" | "directory" | "transcriptHome" | "targetSkillPath" | "tasksFile" | "model" | "cronPattern",
    label: string,
    hint?: string,
  ) => (
    <Field label={label} hint={hint} error={fieldError(k)}>
      <input className={INPUT} value={v[k]} onChange={(e) => set(k)(e.target.value)} aria-label={label} />
    </Field>
  );
  return (
    <form
      className="space-y-3"
      data-testid="sleep-project-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(v, { onSuccess: onDone });
      }}
    >
      <div className="grid gap-3 md:grid-cols-2">
        {text("name", "Name")}
        {text("directory", "Project folder", "Absolute path; staged nights go to its .skillopt-sleep/staging folder.")}
        <Field label="Transcript source" error={fieldError("transcriptSource")}>
          <select
            className={INPUT}
            value={v.transcriptSource}
            onChange={(e) => set("transcriptSource")(e.target.value as SleepProjectInput["transcriptSource"])}
            aria-label="Transcript source"
          >
            {SLEEP_TRANSCRIPT_SOURCES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </Field>
        {text(
          "transcriptHome",
          "Transcript home",
          "The agent's folder (e.g. ~/.claude as an absolute path); empty = the default.",
        )}
        {text(
          "targetSkillPath",
          "Target skill file",
          "A markdown skill file (.md); empty = the managed skill under the agent's home.",
        )}
        {text(
          "tasksFile",
          "Reviewed tasks file",
          "Optional: replay this file (sleep harvest --output) instead of harvesting.",
        )}
        <Field label="Backend" error={fieldError("backend")}>
          <select
            className={INPUT}
            value={v.backend}
            onChange={(e) => set("backend")(e.target.value)}
            aria-label="Backend"
          >
            {SLEEP_DASHBOARD_BACKENDS.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </Field>
        {text("model", "Model", "Empty = the backend's default.")}
        <Field label="Lookback (hours, first night)" error={fieldError("lookbackHours")}>
          <input
            className={INPUT}
            type="number"
            min={0}
            value={v.lookbackHours}
            onChange={(e) => set("lookbackHours")(Number(e.target.value))}
            aria-label="Lookback hours"
          />
        </Field>
        {text(
          "cronPattern",
          "Schedule (cron)",
          "Five fields in the worker's time zone, e.g. 0 3 * * * = every night at 03:00.",
        )}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={v.enabled} onChange={(e) => set("enabled")(e.target.checked)} /> Run on schedule
      </label>
      {general && <Notice tone="error">{general}</Notice>}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {project ? "Save project" : "Create project"}
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}

function pick(p: SleepProjectView): SleepProjectInput {
  const {
    name,
    directory,
    transcriptSource,
    transcriptHome,
    targetSkillPath,
    tasksFile,
    backend,
    model,
    lookbackHours,
    cronPattern,
    enabled,
  } = p;
  return {
    name,
    directory,
    transcriptSource,
    transcriptHome,
    targetSkillPath,
    tasksFile,
    backend,
    model,
    lookbackHours,
    cronPattern,
    enabled,
  };
}
