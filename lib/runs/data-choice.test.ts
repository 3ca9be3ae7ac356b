import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { checkDataChoice, validateRunRequest } from "./create";

const root = process.cwd();

async function choice(body: Record<string, unknown>): Promise<AppError | null> {
  const v = await validateRunRequest(body, root);
  try {
    checkDataChoice(body, v);
    return null;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe("a custom run trains only on the data the user chose", () => {
  it("refuses a custom run with neither an upload nor the example chosen (a failed upload cannot fall back)", async () => {
    const err = await choice({ preset: "custom/sample.yaml" });
    expect(err?.field).toBe("file");
    expect(err?.message).toMatch(
      /no data file was uploaded; upload your .jsonl or .csv file, or choose the preset's example file \(configs\/custom\/example.jsonl\)/,
    );
  });

  it("accepts the preset's example file when the request chooses it", async () => {
    expect(await choice({ preset: "custom/sample.yaml", exampleData: true })).toBeNull();
  });

  it("accepts an uploaded file, and refuses one sent together with exampleData", async () => {
    const upload = {
      "env.data_path": "tests/fixtures/custom-plain/plain-qa.jsonl",
      "env.id_field": "id",
      "env.question_field": "question",
      "env.answer_field": "answer",
      "env.context_field": "",
    };
    // The fixture is outside the folders a request may read from, so check the rule on a local-trust copy.
    const v = await validateRunRequest({ preset: "custom/sample.yaml", exampleData: true }, root);
    expect(() => checkDataChoice({ preset: "custom/sample.yaml", overrides: upload }, v)).not.toThrow();
    expect(() => checkDataChoice({ preset: "custom/sample.yaml", overrides: upload, exampleData: true }, v)).toThrow(
      /exampleData: the request names an uploaded file/,
    );
  });

  it("leaves the other benchmarks alone", async () => {
    expect(await choice({ preset: "searchqa/sample.yaml" })).toBeNull();
  });
});
