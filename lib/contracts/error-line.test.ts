import { describe, expect, it } from "vitest";
import { ERROR_LINE_MAX, errorLine } from "./error-line";

// Real Prisma 6.19 messages (captured from the SQLite client), as they reached the run's error column.
const PRISMA_NOT_FOUND =
  "\nInvalid `db.run.update()` invocation in\n/work/main/lib/db/runs.ts:171:20\n\n  168 export async function markRunFinished(\n  169   id: string,\n  170 ) {\n→ 171   await db.run.update(\nAn operation failed because it depends on one or more records that were required but not found. No record was found for an update.";
const PRISMA_VALIDATION =
  "\nInvalid `tx.run.create()` invocation in\n/work/main/lib/db/runs.ts:4:29\n\n  3 export async function createRun(\n→ 4   return db.run.create({\n      data: {\n        id: 1,\n    +   name: String\n      }\n    })\n\nArgument `name` is missing.";
const PRISMA_TIMEOUT =
  "\nInvalid `tx.runEvent.create()` invocation in\n/srv/skillopt/lib/db/engine-events.ts:204:26\n\n  201 \n→ 204     await tx.runEvent.create(\nOperation has timed out";

describe("errorLine", () => {
  it.each([
    [
      PRISMA_NOT_FOUND,
      "database error: An operation failed because it depends on one or more records that were required but not found. No record was found for an update.",
    ],
    [PRISMA_VALIDATION, "database error: Argument `name` is missing."],
    [PRISMA_TIMEOUT, "database error: Operation has timed out"],
  ])("keeps only the reason of a Prisma dump", (message, expected) => {
    const line = errorLine(new Error(message));
    expect(line).toBe(expected);
    expect(line).not.toContain("\n");
    expect(line).not.toMatch(/\/(work|srv)\//);
  });

  it("drops stack frames and the Error: prefix of a stringified error", () => {
    const err = new Error("boom");
    err.stack =
      "Error: boom\n    at handleOptimizeRun (/work/main/worker/handlers/optimize-run.ts:40:11)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)";
    expect(errorLine(err.stack)).toBe("boom");
    expect(errorLine(err)).toBe("boom");
  });

  it("keeps a source file's name but never its server path", () => {
    const line = errorLine(
      new Error(
        "Cannot find module '/work/main/node_modules/.pnpm/x/dist/index.js' imported from /work/main/lib/envs/registry.ts:12:3",
      ),
    );
    expect(line).toBe("Cannot find module 'index.js' imported from registry.ts");
    expect(line).not.toContain("/work/");
  });

  it("leaves data paths and ordinary messages alone", () => {
    expect(errorLine(new Error("env.data_path: data/qa.jsonl not found"))).toBe(
      "env.data_path: data/qa.jsonl not found",
    );
    expect(errorLine("budget exhausted: 10 of 10 calls")).toBe("budget exhausted: 10 of 10 calls");
  });

  it("joins a multi-line message into one line", () => {
    expect(errorLine(new Error("every item of the batch errored:\n  rate limited (429)"))).toBe(
      "every item of the batch errored: rate limited (429)",
    );
  });

  it("uses a user message when the error has one, and the first issue of a validation error", () => {
    expect(errorLine(Object.assign(new Error("internal detail"), { userMessage: "This run does not exist." }))).toBe(
      "This run does not exist.",
    );
    expect(
      errorLine({ issues: [{ path: ["train", "batch_size"], message: "Expected number" }], message: "[{…}]" }),
    ).toBe("train.batch_size: Expected number");
    expect(
      errorLine(JSON.stringify([{ code: "invalid_type", path: ["env", "name"], message: "Required" }], null, 2)),
    ).toBe("env.name: Required");
  });

  it("hides credentials that a provider echoed back", () => {
    const line = errorLine(
      new Error(
        "401 Incorrect API key provided: sk-proj-abcdefghijklmnop. Authorization: Bearer abcdefghijklmnopqrstuv api_key=supersecret",
      ),
    );
    expect(line).not.toMatch(/abcdefghijklmnop|supersecret/);
    expect(line).toContain("sk-proj-…");
  });

  it("is bounded and never empty", () => {
    expect(errorLine(new Error("x".repeat(5000))).length).toBe(ERROR_LINE_MAX);
    expect(errorLine(new Error(""))).toBe("unknown error");
    expect(errorLine(undefined)).toBe("unknown error");
    expect(errorLine(42)).toBe("42");
  });
});
