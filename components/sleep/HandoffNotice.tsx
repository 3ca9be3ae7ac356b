import { Notice } from "@/components/ui/Notice";
import type { SleepNightDetail } from "@/lib/contracts/sleep";

/** A handoff night stopped at a round of prompts: where they are and how to continue the same night. */
export function HandoffNotice({ n }: { n: SleepNightDetail }) {
  const h = n.handoff;
  const command = `npm run skillopt -- sleep ${n.dryRun ? "dry-run" : "run"} --project ${n.projectDir} --backend handoff`;
  return (
    <Notice tone="warn" title="Waiting for handoff answers" testId="handoff-waiting">
      <p>
        This night runs on the handoff backend: no model is called, you answer its prompts.{" "}
        {h ? `${h.pending} prompt(s) are waiting in ${h.dir}.` : "Its prompts are waiting in the handoff folder."}
      </p>
      <ol className="mt-1 list-decimal pl-5">
        <li>
          Open <code className="wrap-anywhere">{h?.promptsPath ?? "PROMPTS.md"}</code> and answer each prompt in a fresh
          context (a new chat), not in one conversation.
        </li>
        <li>
          Save each raw answer as{" "}
          <code className="wrap-anywhere">{h ? `${h.answersDir}/<id>.md` : "answers/<id>.md"}</code> (the id is given
          above each prompt).
        </li>
        <li>
          Run the same command again, e.g. <code className="wrap-anywhere">{command}</code>. It continues this night; a
          night usually takes 3–6 rounds.
        </li>
      </ol>
    </Notice>
  );
}
