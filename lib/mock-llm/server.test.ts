import { describe, expect, it } from "vitest";
import { simAnswer } from "../backends/sim";
import { defaultKnowledge } from "./answer";
import { analystPrompt, chatBody, GUIDED, postJson, targetPrompt, UNGUIDED, useMockServer } from "./testing";

const start = useMockServer();

type Chat = {
  model: string;
  choices: Array<{ message: { content: string }; finish_reason: string }>;
  usage: Record<string, number>;
};

describe("mock LLM server over plain fetch", () => {
  it("answers a SearchQA target prompt inside <answer> tags, following the skill's guidance", async () => {
    const s = await start();
    const guided = (await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)))).json() as Chat;
    const bare = (await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(false)))).json() as Chat;
    expect(guided.choices[0]!.message.content).toContain(`<answer>${GUIDED}</answer>`);
    expect(bare.choices[0]!.message.content).toContain(`<answer>${UNGUIDED}</answer>`);
    expect(guided).toMatchObject({ object: "chat.completion", model: "sim-target" });
    expect(guided.choices[0]!.finish_reason).toBe("stop");
    const u = guided.usage;
    expect(u.total_tokens).toBe(u.prompt_tokens! + u.completion_tokens!);
    expect(s.stats().byRole).toEqual({ optimizer: 0, target: 2 });
  });

  it("answers an optimizer prompt with the sim's JSON, identical to the in-process sim", async () => {
    const s = await start({ seed: 9 });
    const p = analystPrompt();
    const body = (await postJson(`${s.url}/v1/chat/completions`, chatBody(p, "sim-optimizer"))).json() as Chat;
    const text = body.choices[0]!.message.content;
    const parsed = JSON.parse(text) as { patch: { edits: Array<{ content: string }> } };
    expect(parsed.patch.edits.map((e) => e.content).join("\n")).toMatch(/shortest exact span/);
    const opts = {
      knowledge: defaultKnowledge(),
      seed: 9,
      slipRate: 0,
      unhelpfulRate: 0.25,
      malformedRate: 0,
      latencyMs: 0,
    };
    expect(text).toBe(simAnswer(p.system, p.user, { ...opts, role: "optimizer" }));
    expect(s.stats().byRole.optimizer).toBe(1);
  });

  it("joins array content parts and honours max_tokens with finish_reason length", async () => {
    const s = await start();
    const p = targetPrompt(true);
    const parts = {
      model: "m",
      messages: [
        { role: "system", content: [{ type: "text", text: p.system }] },
        { role: "user", content: [{ type: "text", text: p.user }] },
      ],
    };
    const full = (await postJson(`${s.url}/v1/chat/completions`, parts)).json() as Chat;
    expect(full.choices[0]!.message.content).toContain(`<answer>${GUIDED}</answer>`);
    const capped = (await postJson(`${s.url}/v1/chat/completions`, { ...parts, max_tokens: 3 })).json() as Chat;
    expect(capped.choices[0]!.message.content).toHaveLength(12);
    expect(capped.choices[0]!.finish_reason).toBe("length");
  });

  it("serves the Azure deployment path with the deployment as the model, and the model list", async () => {
    const s = await start();
    const r = await postJson(
      `${s.url}/openai/deployments/my-dep/chat/completions?api-version=2024-10-21`,
      chatBody(targetPrompt(true), "ignored"),
    );
    expect((r.json() as Chat).model).toBe("my-dep");
    const models = (await (await fetch(`${s.url}/v1/models`)).json()) as {
      object: string;
      data: Array<{ id: string; owned_by: string }>;
    };
    expect(models.object).toBe("list");
    expect(models.data.map((m) => m.id)).toEqual(["sim-optimizer", "sim-target"]);
    expect(s.stats().byEndpoint).toEqual({ "azure.chat.completions": 1, models: 1 });
  });

  it("answers 404 for unknown paths and 400 for bad bodies, as JSON", async () => {
    const s = await start();
    const missing = await postJson(`${s.url}/v1/nothing`, {});
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    const bad = await postJson(`${s.url}/v1/chat/completions`, "{not json");
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    const noMessages = await postJson(`${s.url}/v1/messages`, { model: "m", max_tokens: 5 });
    expect(noMessages.status).toBe(400);
    expect(noMessages.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(s.stats().byStatus).toEqual({ "404": 1, "400": 2 });
  });

  it("checks the key in Bearer, x-api-key or api-key when requireKey is set", async () => {
    const s = await start({ requireKey: "secret" });
    const body = chatBody(targetPrompt(true));
    const none = await postJson(`${s.url}/v1/chat/completions`, body);
    expect(none.status).toBe(401);
    expect(none.json()).toEqual({
      error: {
        type: "invalid_request_error",
        code: "invalid_api_key",
        message: "Incorrect API key provided",
        param: null,
      },
    });
    const wrong = await postJson(`${s.url}/v1/chat/completions`, body, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    const accepted: Array<Record<string, string>> = [
      { authorization: "Bearer secret" },
      { "x-api-key": "secret" },
      { "api-key": "secret" },
    ];
    for (const headers of accepted) {
      expect((await postJson(`${s.url}/v1/chat/completions`, body, { headers })).status).toBe(200);
    }
    expect((await fetch(`${s.url}/stats`)).status).toBe(200); // the control endpoint needs no key
  });

  it("applies a fixed latency", async () => {
    const s = await start({ latency: { fixedMs: 150 } });
    const t0 = performance.now();
    expect((await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)))).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it("counts concurrent requests in maxInFlight, and /stats is not counted", async () => {
    const s = await start({ latency: { meanMs: 200, jitterMs: 20 } });
    const all = Array.from({ length: 5 }, () => postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true))));
    await new Promise((r) => setTimeout(r, 60));
    const mid = (await (await fetch(`${s.url}/stats`)).json()) as { inFlight: number };
    expect(mid.inFlight).toBe(5);
    await Promise.all(all);
    const st = s.stats();
    expect(st).toMatchObject({ requests: 5, inFlight: 0, maxInFlight: 5 });
    expect(st.tokens.total).toBe(st.tokens.prompt + st.tokens.completion);
    s.resetStats();
    expect(s.stats()).toMatchObject({ requests: 0, maxInFlight: 0, tokens: { total: 0 } });
  });
});
