import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import { COMPATIBLE_PRESETS } from "../openai-compatible/presets";
import { chatBody } from "./chat";
import { acceptedEfforts, prefersResponses } from "./models";
import { responsesBody } from "./responses";

const req: CompletionRequest = {
  role: "target",
  stage: "rollout",
  system: "be brief",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image", mediaType: "image/png", dataBase64: "AAA" },
      ],
    },
  ],
  maxTokens: 500,
  reasoningEffort: "high",
};

describe("which parameters are sent", () => {
  it("openai reasoning models get reasoning_effort; others never do", () => {
    const policy = {
      tokenField: "max_completion_tokens" as const,
      effort: "reasoning_effort" as const,
      temperature: false,
    };
    const reasoning = chatBody(req, { model: "gpt-5.5", policy, efforts: acceptedEfforts("gpt-5.5") });
    expect(reasoning).toMatchObject({ model: "gpt-5.5", max_completion_tokens: 500, reasoning_effort: "high" });
    expect(reasoning.messages).toEqual([
      { role: "system", content: "be brief" },
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
        ],
      },
    ]);
    const plain = chatBody(req, { model: "gpt-4o", policy, efforts: acceptedEfforts("gpt-4o") });
    expect(plain).not.toHaveProperty("reasoning_effort");
    expect(plain).not.toHaveProperty("temperature");
    // "minimal" is a gpt-5 value that gpt-5.1 rejects: not sent.
    const minimal = chatBody(
      { ...req, reasoningEffort: "minimal" },
      { model: "gpt-5.1", policy, efforts: acceptedEfforts("gpt-5.1") },
    );
    expect(minimal).not.toHaveProperty("reasoning_effort");
  });

  it("an image part's detail is sent only when it is not auto", () => {
    const policy = {
      tokenField: "max_completion_tokens" as const,
      effort: "reasoning_effort" as const,
      temperature: false,
    };
    const withDetail = (detail: "auto" | "low" | "high") => ({
      ...req,
      messages: [
        {
          role: "user" as const,
          content: [{ type: "image" as const, mediaType: "image/png", dataBase64: "AAA", detail }],
        },
      ],
    });
    const sent = (detail: "auto" | "low" | "high") =>
      (chatBody(withDetail(detail), { model: "gpt-4o", policy, efforts: [] }).messages as unknown[])[1];
    expect(sent("high")).toEqual({
      role: "user",
      content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAA", detail: "high" } }],
    });
    expect(sent("auto")).toEqual({
      role: "user",
      content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAA" } }],
    });
    const responses = responsesBody(withDetail("low"), { model: "gpt-5.3-codex", efforts: [] });
    expect(JSON.stringify(responses.input)).toContain('"detail":"low"');
  });

  it("each compatible preset gets only the parameters it accepts", () => {
    for (const preset of Object.values(COMPATIBLE_PRESETS)) {
      const { efforts, ...policy } = preset.params;
      const body = chatBody(req, { model: "m", policy, efforts, temperature: 0.2 });
      const keys = Object.keys(body).sort();
      const allowed = ["messages", "model", policy.tokenField, ...(policy.temperature ? ["temperature"] : [])];
      if (policy.effort === "reasoning_object") allowed.push("reasoning");
      if (policy.effort === "reasoning_effort") allowed.push("reasoning_effort");
      expect(
        keys.every((k) => allowed.includes(k)),
        `${preset.name}: ${keys.join(",")}`,
      ).toBe(true);
      expect(body).not.toHaveProperty("max_completion_tokens");
    }
    const qwen = COMPATIBLE_PRESETS.qwen!.params;
    expect(chatBody(req, { model: "qwen-plus", policy: qwen, efforts: qwen.efforts })).not.toHaveProperty(
      "reasoning_effort",
    );
    const or = COMPATIBLE_PRESETS.openrouter!.params;
    expect(chatBody(req, { model: "openai/gpt-5", policy: or, efforts: or.efforts })).toMatchObject({
      reasoning: { effort: "high" },
      max_tokens: 500,
    });
  });

  it("the Responses API body: instructions, input with images, max_output_tokens, reasoning", () => {
    const body = responsesBody(req, { model: "gpt-5.3-codex", efforts: acceptedEfforts("gpt-5.3-codex") });
    expect(body).toEqual({
      model: "gpt-5.3-codex",
      instructions: "be brief",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "what is this?" },
            { type: "input_image", image_url: "data:image/png;base64,AAA", detail: "auto" },
          ],
        },
      ],
      max_output_tokens: 500,
      reasoning: { effort: "high" },
    });
    expect(responsesBody({ ...req, reasoningEffort: "" }, { model: "m", efforts: [] })).not.toHaveProperty("reasoning");
  });
});

describe("model families", () => {
  it("routes the original's Codex and pro deployments to the Responses API", () => {
    for (const m of ["gpt-5.3-codex", "gpt-5-codex-2025", "codex-mini", "gpt-5.4-pro"])
      expect(prefersResponses(m)).toBe(true);
    for (const m of ["gpt-5.5", "gpt-5.4", "gpt-4o", "codex"]) expect(prefersResponses(m)).toBe(false);
  });

  it("knows which efforts each family accepts", () => {
    expect(acceptedEfforts("gpt-4.1-mini")).toEqual([]);
    expect(acceptedEfforts("gpt-5-chat-latest")).toEqual([]);
    expect(acceptedEfforts("o4-mini")).toEqual(["low", "medium", "high"]);
    expect(acceptedEfforts("gpt-5-mini")).toContain("minimal");
    expect(acceptedEfforts("gpt-5.5")).toContain("xhigh");
    expect(acceptedEfforts("llama3")).toEqual([]);
  });
});
