import { describe, expect, it } from "vitest";
import { normalisePatches, parseAnalystResult } from "./reflect";

describe("parseAnalystResult", () => {
  const opts = { kind: "failure" as const, mode: "patch" as const, budget: 2, skillAware: false };
  const edits = (n: number) => Array.from({ length: n }, (_, i) => ({ op: "append", content: `e${i}` }));

  it("rejects answers that are not a non-empty object with a patch", () => {
    expect(parseAnalystResult("no json here", opts)).toBeNull();
    expect(parseAnalystResult("[1, 2]", opts)).toBeNull();
    expect(parseAnalystResult("{}", opts)).toBeNull();
    expect(parseAnalystResult('{"batch_size": 2, "failure_summary": []}', opts)).toBeNull();
  });

  it("sets source_type from the analyst kind and truncates the payload to L", () => {
    const text = JSON.stringify({ batch_size: 3, source_type: "success", patch: { reasoning: "r", edits: edits(5) } });
    const r = parseAnalystResult(text, opts)!;
    expect(r.source_type).toBe("failure");
    expect(r.patch).toEqual({ reasoning: "r", edits: edits(2) });
    expect(r.batch_size).toBe(3);
    expect(parseAnalystResult(text, { ...opts, kind: "success" })!.source_type).toBe("success");
  });

  it("truncates the suggestions list in rewrite mode and leaves full-rewrite candidates alone", () => {
    const sugg = Array.from({ length: 4 }, (_, i) => ({ type: "clarify", title: `t${i}` }));
    const r = parseAnalystResult(JSON.stringify({ patch: { revise_suggestions: sugg } }), {
      ...opts,
      mode: "rewrite_from_suggestions",
      budget: 1,
    })!;
    expect(r.patch.revise_suggestions).toEqual(sugg.slice(0, 1));
    const cands = Array.from({ length: 3 }, (_, i) => ({ title: `c${i}`, new_skill: `# S${i}` }));
    const f = parseAnalystResult(JSON.stringify({ patch: { skill_candidates: cands } }), {
      ...opts,
      mode: "full_rewrite_minibatch",
      budget: 1,
    })!;
    expect(f.patch.skill_candidates).toEqual(cands);
  });

  it("accepts a fenced answer with prose around it", () => {
    const text =
      'Here you go:\n```json\n{"patch": {"reasoning": "r", "edits": [{"op": "append", "content": "x"}]}}\n```\nDone.';
    expect(parseAnalystResult(text, opts)!.patch.edits).toEqual([{ op: "append", content: "x" }]);
  });

  it("skill-aware: normalises appendix_notes from strings and {note|content} objects", () => {
    const text = JSON.stringify({
      patch: { reasoning: "r", edits: [] },
      appendix_notes: ["  check units ", { note: "re-read the question" }, { content: "state the answer last" }, 3, ""],
    });
    expect(parseAnalystResult(text, { ...opts, skillAware: true })!.appendix_notes).toEqual([
      "check units",
      "re-read the question",
      "state the answer last",
    ]);
    const single = JSON.stringify({ patch: { edits: [] }, appendix_notes: "one note" });
    expect(parseAnalystResult(single, { ...opts, skillAware: true })!.appendix_notes).toEqual(["one note"]);
  });

  it("skill-aware failure analyst without a patch but with notes yields the execution-lapse carrier", () => {
    const text = JSON.stringify({ batch_size: 2, appendix_notes: ["follow rule 3"] });
    expect(parseAnalystResult(text, { ...opts, skillAware: true })).toEqual({
      source_type: "failure",
      patch: { reasoning: "execution-lapse only", edits: [] },
      appendix_notes: ["follow rule 3"],
    });
    // Only the failure analyst carries, only in skill-aware mode, and only with notes.
    expect(parseAnalystResult(text, { ...opts, kind: "success", skillAware: true })).toBeNull();
    expect(parseAnalystResult(text, opts)).toBeNull();
    expect(
      parseAnalystResult(JSON.stringify({ batch_size: 2, appendix_notes: ["  "] }), { ...opts, skillAware: true }),
    ).toBeNull();
  });
});

describe("normalisePatches (spec §7.3)", () => {
  const edit = (content: string) => ({ op: "append", content });

  it("fills support_count from max(int(batch_size or 0), 1) and source_type from the result", () => {
    const cases: Array<[unknown, number]> = [
      [3, 3],
      ["4", 4],
      [2.7, 2],
      [0, 1],
      [-2, 1],
      [null, 1],
      [undefined, 1],
    ];
    for (const [batch, support] of cases) {
      const p: Record<string, unknown> = { source_type: "failure", patch: { reasoning: "r", edits: [edit("a")] } };
      if (batch !== undefined) p.batch_size = batch;
      const { failure } = normalisePatches([p], "patch");
      expect(failure[0]!.edits).toEqual([
        { op: "append", content: "a", source_type: "failure", support_count: support },
      ]);
    }
  });

  it("routes by source_type (missing → failure) and keeps the inner patch's other fields", () => {
    const { failure, success } = normalisePatches(
      [
        { source_type: "success", batch_size: 2, patch: { reasoning: "s", edits: [edit("s1")] } },
        { patch: { reasoning: "f", edits: [edit("f1")] } },
      ],
      "patch",
    );
    expect(success).toEqual([
      { reasoning: "s", edits: [{ op: "append", content: "s1", source_type: "success", support_count: 2 }] },
    ]);
    expect(failure).toEqual([
      { reasoning: "f", edits: [{ op: "append", content: "f1", source_type: "failure", support_count: 1 }] },
    ]);
  });

  it("only sets defaults: keys already present are kept, even when null", () => {
    const { failure } = normalisePatches(
      [
        {
          source_type: "failure",
          batch_size: 5,
          patch: {
            edits: [
              { op: "append", content: "a", source_type: "success", support_count: 9 },
              { op: "append", content: "b", source_type: null, support_count: null },
            ],
          },
        },
      ],
      "patch",
    );
    expect(failure[0]!.edits).toEqual([
      { op: "append", content: "a", source_type: "success", support_count: 9 },
      { op: "append", content: "b", source_type: null, support_count: null },
    ]);
  });

  it("keeps non-object items as they are", () => {
    const { failure } = normalisePatches([{ batch_size: 1, patch: { edits: ["just text", 7, edit("x")] } }], "patch");
    expect(failure[0]!.edits).toEqual([
      "just text",
      7,
      { op: "append", content: "x", source_type: "failure", support_count: 1 },
    ]);
  });

  it("uses the result itself when it has no patch key", () => {
    const { success } = normalisePatches([{ source_type: "success", batch_size: 3, edits: [edit("top")] }], "patch");
    expect(success).toHaveLength(1);
    expect(success[0]!.edits).toEqual([{ op: "append", content: "top", source_type: "success", support_count: 3 }]);
  });

  it("skips non-objects, non-object patches, empty and non-list payloads, and the other modes' keys", () => {
    const out = normalisePatches(
      [
        "text",
        null,
        [edit("arr")],
        { patch: null },
        { patch: "no" },
        { patch: { edits: [] } },
        { patch: { edits: "not a list" } },
        { patch: { edits: { op: "append" } } },
        { patch: { revise_suggestions: [{ title: "t" }] } },
      ],
      "patch",
    );
    expect(out).toEqual({ failure: [], success: [] });
  });

  it("reads the payload key of the update mode", () => {
    const raw = [
      {
        source_type: "failure",
        batch_size: 2,
        patch: { edits: [edit("e")], revise_suggestions: [{ title: "t" }], skill_candidates: [{ new_skill: "# S" }] },
      },
    ];
    expect(normalisePatches(raw, "rewrite_from_suggestions").failure[0]!.revise_suggestions).toEqual([
      { title: "t", source_type: "failure", support_count: 2 },
    ]);
    expect(normalisePatches(raw, "full_rewrite_minibatch").failure[0]!.skill_candidates).toEqual([
      { new_skill: "# S", source_type: "failure", support_count: 2 },
    ]);
  });
});
