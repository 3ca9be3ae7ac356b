import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { POST as estimate } from "../../app/api/runs/estimate/route";
import { POST as upload } from "../../app/api/uploads/route";
import type { Estimate, UploadInfo } from "../contracts/api";
import { toOverrideArgs } from "./create";

// The New run flow for the custom benchmark without a database: upload a file, then ask for the
// pre-flight estimate with the mapping (the same validation the create route runs before writing).
// The estimate is a read: it must write nothing, not even the ratio split's files.
const stored: string[] = [];
afterAll(() => {
  for (const p of stored) rmSync(p, { force: true });
});

const splitsDir = join(process.cwd(), ".skillopt", "splits");
const writtenSplits = () => (existsSync(splitsDir) ? readdirSync(splitsDir).sort() : []);

const csv = ["Q,A,Notes", ...Array.from({ length: 12 }, (_, i) => `What is ${i} + ${i}?,${2 * i},n${i}`)].join("\n");

async function uploaded(): Promise<UploadInfo> {
  const form = new FormData();
  form.set("file", new File([csv], "sums.csv"));
  const res = await upload(new Request("http://127.0.0.1/api/uploads", { method: "POST", body: form }));
  expect(res.status).toBe(201);
  const info = (await res.json()) as UploadInfo;
  stored.push(join(process.cwd(), info.path));
  return info;
}

function estimateRequest(overrides: Record<string, string | number>) {
  const body = {
    preset: "custom/default.yaml",
    overrides: {
      "model.backend": "sim",
      "model.optimizer": "sim-optimizer",
      "model.target": "sim-target",
      "train.batch_size": 2,
      "env.split_ratio": "2:1:1",
      ...overrides,
    },
  };
  return estimate(
    new Request("http://127.0.0.1/api/runs/estimate", {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    }),
  );
}

describe("custom dataset: upload then estimate", () => {
  it("estimates a run on the uploaded file and shows the data and split hashes, writing no split files", async () => {
    const info = await uploaded();
    const before = writtenSplits();
    const res = await estimateRequest({
      "env.data_path": info.path,
      "env.question_field": "Q",
      "env.answer_field": "A",
      "env.metric": "numeric",
      "env.id_field": "",
    });
    expect(res.status).toBe(200);
    const e = (await res.json()) as Estimate;
    expect(e.splitSizes).toEqual({ train: 6, val: 3, test: 3 });
    expect(e.dataset).toMatchObject({ splitMode: "ratio", dataPath: info.path, dataSha256: info.sha256.slice(0, 12) });
    expect(e.dataset?.splits.train).toMatchObject({ count: 6, sha256: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(writtenSplits()).toEqual(before);
  });

  it("refuses an output folder chosen by the request, naming the field", async () => {
    const info = await uploaded();
    const res = await estimateRequest({
      "env.data_path": info.path,
      "env.question_field": "Q",
      "env.answer_field": "A",
      "env.split_output_dir": "/tmp/anywhere",
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { field: string } }).error.field).toBe("env.split_output_dir");
    expect(existsSync("/tmp/anywhere")).toBe(false);
  });

  it("counts one optimizer call per rollout when the LLM judge grades", async () => {
    const info = await uploaded();
    const res = await estimateRequest({
      "env.data_path": info.path,
      "env.question_field": "Q",
      "env.answer_field": "A",
      "env.metric": "judge",
    });
    const e = (await res.json()) as Estimate;
    const judge = e.phases.find((p) => p.phase.startsWith("judge"));
    const rollouts = e.phases.filter((p) =>
      ["baseline selection", "train rollouts", "selection evaluations", "epoch comparisons", "final tests"].includes(
        p.phase,
      ),
    );
    expect(judge?.calls).toBe(rollouts.reduce((n, p) => n + p.calls, 0));
  });

  it("answers 422 naming the field for a column the file does not have", async () => {
    const info = await uploaded();
    const res = await estimateRequest({
      "env.data_path": info.path,
      "env.question_field": "Question",
      "env.answer_field": "A",
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { field: string; message: string } };
    expect(body.error.field).toBe("env.question_field");
    expect(body.error.message).toMatch(
      /item 0: missing field 'Question'; the item has fields: Q, A, Notes \(env\.question_field\)$/,
    );
  });

  it("answers 422 for a metric option the mapping needs, before reading any row", async () => {
    const info = await uploaded();
    const res = await estimateRequest({
      "env.data_path": info.path,
      "env.question_field": "Q",
      "env.answer_field": "A",
      "env.metric": "regex",
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { field: string } }).error.field).toBe("env.answer_regex");
  });

  it("sends an empty context or regex as a value, not as 'keep the preset's'", () => {
    expect(toOverrideArgs({ "env.context_field": "", "env.limit": "", "env.answer_regex": "[A-D]" })).toEqual([
      "env.context_field=",
      "env.answer_regex=[A-D]",
    ]);
  });
});
