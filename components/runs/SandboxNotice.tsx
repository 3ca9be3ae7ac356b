import type { RunDetail } from "@/lib/contracts/api";
import { Notice } from "../ui/Notice";

/**
 * Warns when a run may execute model-written code without the bubblewrap sandbox: SpreadsheetBench's
 * `env.allow_unsandboxed: true`, which takes effect only where bubblewrap is unavailable (the worker
 * log and the CLI say when it did).
 */
export function SandboxNotice({ run }: { run: Pick<RunDetail, "config"> }) {
  const env = run.config.env as Record<string, unknown>;
  if (env.allow_unsandboxed !== true) return null;
  return (
    <Notice tone="warn" title="Model-written code may run without the sandbox" testId="sandbox-notice">
      This run sets <code className="font-mono">env.allow_unsandboxed: true</code>. Where bubblewrap is unavailable, its
      scripts run as ordinary processes with only a scrubbed environment and time and memory limits: they can read this
      machine&apos;s files and reach the network. The worker log says whether that happened.
    </Notice>
  );
}
