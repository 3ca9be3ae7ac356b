/**
 * Persona fixtures of the deterministic experiment (spec D.14), written for this project. Each task has an
 * exact reference and `rule:<key>` tags naming the mock rules that make it solvable, so the experiment can
 * show — with no model and no randomness — that one night lifts the held-out score and that the gate
 * blocks a harmful rule.
 */
import { makeTask, type TaskRecord } from "../types";

function persona(prefix: string, rules: string[], items: ReadonlyArray<[string, string]>): TaskRecord[] {
  return items.map(([intent, reference], i) =>
    makeTask({
      id: `persona_${prefix}_${i}`,
      project: "/personas/demo",
      intent,
      outcome: "fail",
      referenceKind: "exact",
      reference,
      tags: rules.map((r) => `rule:${r}`),
      sourceSessions: [`session_${prefix}_${i}`],
    }),
  );
}

/** A researcher who wants arXiv identifiers, formatted and wrapped in answer tags. */
export function researcherPersona(): TaskRecord[] {
  return persona(
    "researcher",
    ["wrap-answer", "arxiv-id"],
    [
      ["Which arXiv id does the Word2Vec paper have?", "arXiv:1301.3781"],
      ["Give me the arXiv id of 'Attention Is All You Need'", "arXiv:1706.03762"],
      ["What is the arXiv identifier of the original GAN paper?", "arXiv:1406.2661"],
      ["arXiv id of BERT, please", "arXiv:1810.04805"],
      ["I need the arXiv id for the ResNet paper", "arXiv:1512.03385"],
      ["Look up the arXiv id of the Adam optimizer paper", "arXiv:1412.6980"],
      ["What's the arXiv id for batch normalization?", "arXiv:1502.03167"],
      ["arXiv identifier of the variational autoencoder paper?", "arXiv:1312.6114"],
      ["Find the arXiv id of the GPT-3 paper", "arXiv:2005.14165"],
      ["Which arXiv id belongs to Transformer-XL?", "arXiv:1901.02860"],
      ["arXiv id of the dropout paper by Hinton et al.?", "arXiv:1207.0580"],
      ["What is the arXiv id of the layer normalization paper?", "arXiv:1607.06450"],
    ],
  );
}

/** A programmer who wants short, imperative commit subjects. */
export function programmerPersona(): TaskRecord[] {
  return persona(
    "programmer",
    ["commit-imperative"],
    [
      ["Write the commit message for adding a login form", "Add login form"],
      ["Commit message for the fix of the parser's null dereference", "Fix null dereference in parser"],
      ["Commit message: I updated the README", "Update README"],
      ["What should the commit say when removing dead code?", "Remove dead code"],
      ["Commit message for bumping the version to 1.2.0", "Bump version to 1.2.0"],
      ["Commit message for splitting the auth module", "Split auth module"],
      ["Commit message for the new scheduler unit tests", "Add unit tests for scheduler"],
      ["Commit message for repairing the CI pipeline", "Repair CI pipeline"],
    ],
  );
}

/**
 * The gate-safety probe: a task whose only "fix" the mock can propose is the harmful rule. Applying it
 * never raises the held-out score, so a working gate must reject it.
 */
export function harmfulTask(): TaskRecord {
  return makeTask({
    id: "persona_harmful_99",
    project: "/personas/demo",
    intent: "answer this however you like",
    outcome: "fail",
    referenceKind: "exact",
    reference: "an-answer-the-harmful-rule-cannot-produce",
    tags: ["rule:__harmful__"],
    sourceSessions: ["session_harmful_99"],
  });
}

export const PERSONAS = { researcher: researcherPersona, programmer: programmerPersona } as const;
export type PersonaName = keyof typeof PERSONAS;
