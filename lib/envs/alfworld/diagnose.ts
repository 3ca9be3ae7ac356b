/**
 * What went wrong in a lost episode, in a few distinctive phrases appended to the failure reason so an
 * analyst (or the simulated one) can tell a navigation loop from an untreated object at a glance. Trace
 * clauses work for any simulator (they read only actions and feedback); the built-in simulator adds
 * clauses from the world state it alone knows.
 */
import type { Household } from "./sim/household";
import { NOTHING_HAPPENS } from "./sim/actions";

/** One finding: `core` is stable across step limits; `detail` adds counts and names. */
export interface Clause {
  kind: string;
  core: string;
  detail?: string;
}

/** One executed step as the rollout saw it. */
export interface TraceStep {
  action: string;
  feedback: string;
}

const VERB: Record<string, string> = { clean: "cleaning", heat: "heating", cool: "cooling" };

/** Findings only the built-in simulator can make. */
export function householdClauses(sim: Household): Clause[] {
  const ev = sim.events;
  const out: Clause[] = [];
  if (ev.untreatedPut) {
    const u = ev.untreatedPut;
    out.push({ kind: "untreated_put", core: `put ${u.object} in ${u.recep} without ${VERB[u.treatment]!} it first` });
  }
  if (ev.lampEmptyHanded) out.push({ kind: "lamp_empty", core: `turned on ${ev.lampEmptyHanded} with empty hands` });
  if (ev.takeWhileHolding) {
    const t = ev.takeWhileHolding;
    out.push({ kind: "take_while_holding", core: `tried to take ${t.object} while still holding ${t.holding}` });
  }
  if (ev.closedVisited.size > 0 && ev.opened === 0) {
    out.push({
      kind: "never_opened",
      core: "never opened any of the closed receptacles it visited",
      detail: [...ev.closedVisited].slice(0, 4).join(", "),
    });
  }
  if (!ev.seenKinds.has(sim.goal.object)) out.push({ kind: "never_found", core: `never found a ${sim.goal.object}` });
  return out;
}

/** Findings from actions and feedback alone: revisits, a repeated final action, the last refused action. */
export function traceClauses(steps: readonly TraceStep[]): Clause[] {
  const out: Clause[] = [];
  const visits = new Map<string, number>();
  for (const s of steps) {
    const go = /^go to (.+)$/.exec(s.action);
    if (go && s.feedback !== NOTHING_HAPPENS) visits.set(go[1]!, (visits.get(go[1]!) ?? 0) + 1);
  }
  const busiest = [...visits.entries()].filter(([, n]) => n >= 4).sort((a, b) => b[1] - a[1]);
  if (busiest.length > 0) {
    out.push({
      kind: "revisits",
      core: "kept going back to receptacles it had already searched",
      detail: busiest
        .slice(0, 3)
        .map(([r, n]) => `${r} x${n}`)
        .join(", "),
    });
  }
  const last = steps[steps.length - 1];
  let run = 0;
  for (let i = steps.length - 1; i >= 0 && steps[i]!.action === last?.action; i -= 1) run += 1;
  if (last && run >= 5)
    out.push({ kind: "repeated", core: `repeated '${last.action}'`, detail: `${run} times at the end` });
  const refused = [...steps].reverse().find((s) => s.feedback === NOTHING_HAPPENS);
  if (refused) out.push({ kind: "last_inadmissible", core: `last inadmissible action: '${refused.action}'` });
  return out;
}

/** `core (detail); core …` */
export function formatClauses(clauses: readonly Clause[]): string {
  return clauses.map((c) => (c.detail ? `${c.core} (${c.detail})` : c.core)).join("; ");
}
