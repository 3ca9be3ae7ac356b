/**
 * The mock LLM server: node:http, one handler. Order per request: route → key check → body → enforced
 * rate limit (opt-in) → fault draw → latency → answer. Faults and latency use seeded counters, so a test that sends the same requests in
 * the same order sees the same outcome.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerPrompt, defaultKnowledge, roleOf, type SimSettings } from "./answer";
import { createFaultPicker, createLatencyPicker } from "./draws";
import { createDistributionPicker } from "./latency";
import { errorReply, type ErrorKind, type Protocol } from "./errors";
import { BodyTooLargeError, presentedKeys, readBody, sendJson, sendText, sleepUnlessAborted } from "./http";
import { createRequestBucket } from "./rate-window";
import { matchRoute, MODEL_LIST, type ModelRoute } from "./routes";
import { createStatsRecorder } from "./stats";
import { MOCK_DEFAULTS, type FaultKind, type MockFaults, type MockLlmOptions, type MockLlmServer } from "./types";

const ERROR_FAULTS: Partial<Record<FaultKind, ErrorKind>> = {
  quotaExhausted: "quotaExhausted",
  rate429: "rateLimited",
  rate500: "server",
};

export async function startMockLlmServer(opts: MockLlmOptions = {}): Promise<MockLlmServer> {
  const seed = opts.seed ?? MOCK_DEFAULTS.seed;
  const sim: SimSettings = {
    knowledge: opts.knowledge === undefined ? defaultKnowledge() : opts.knowledge,
    seed,
    slipRate: opts.slipRate ?? MOCK_DEFAULTS.slipRate,
    unhelpfulRate: opts.unhelpfulRate ?? MOCK_DEFAULTS.unhelpfulRate,
    malformedRate: opts.malformedRate ?? MOCK_DEFAULTS.malformedRate,
  };
  const stats = createStatsRecorder();
  let faults: MockFaults = { ...opts.faults };
  let pickFault = createFaultPicker(faults, seed);
  const pickLatency = createLatencyPicker(opts.latency, seed);
  const pickDistLatency = createDistributionPicker(opts.latency?.dist, opts.latency?.byStage, seed);
  let answered = 0;
  const bucket = opts.rateLimit ? createRequestBucket(opts.rateLimit) : null;

  function reply(
    res: ServerResponse,
    protocol: Protocol,
    kind: ErrorKind,
    detail?: string,
    headers?: Record<string, string>,
  ) {
    const { status, body } = errorReply(protocol, kind, detail);
    if (sendJson(res, status, body, headers)) stats.status(status);
  }

  async function answerModel(req: IncomingMessage, res: ServerResponse, route: ModelRoute, gone: AbortSignal) {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (err) {
      if (gone.aborted) return;
      const detail =
        err instanceof BodyTooLargeError
          ? err.message
          : `We could not parse the JSON body of your request: ${(err as Error).message}`;
      return reply(res, route.protocol, "badRequest", detail);
    }
    const prompt = route.parse(body);
    if ("error" in prompt) return reply(res, route.protocol, "badRequest", prompt.error);
    const role = roleOf(prompt.system);
    stats.role(role);
    const admitted = bucket?.take(Date.now());
    if (admitted && !admitted.ok) {
      const detail = `Rate limit reached for requests: limit ${opts.rateLimit!.rpm} per minute (mock LLM server). Please try again in ${admitted.retryAfterMs}ms.`;
      return reply(res, route.protocol, "rateLimited", detail, admitted.headers);
    }

    const promptKey = `${prompt.system}\u0000${prompt.user}`;
    const fault = faults.roles && !faults.roles.includes(role) ? null : pickFault(promptKey);
    if (fault) stats.fault(fault);
    if (fault === "hang") return; // the close listener accounts for it once the client gives up
    const delay = pickDistLatency ? pickDistLatency(prompt.system, promptKey) : pickLatency();
    const slept = await sleepUnlessAborted(delay, gone);
    pickDistLatency?.done(promptKey);
    if (!slept) return;

    const errorKind = fault ? ERROR_FAULTS[fault] : undefined;
    if (errorKind) {
      const headers =
        fault === "rate429"
          ? { "retry-after": String(faults.retryAfterSeconds ?? MOCK_DEFAULTS.retryAfterSeconds) }
          : undefined;
      return reply(res, route.protocol, errorKind, undefined, headers);
    }
    const completion = answerPrompt(prompt, sim, fault === "truncated");
    answered += 1;
    const payload = JSON.stringify(route.format(prompt, completion, `mock${String(answered).padStart(6, "0")}`));
    // Cut mid-document: a 200 that announces JSON but does not parse.
    const text = fault === "malformedJson" ? payload.slice(0, Math.floor(payload.length / 2)) : payload;
    if (sendText(res, 200, text)) {
      stats.status(200);
      stats.tokens(completion.promptTokens, completion.completionTokens);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://mock.invalid").pathname;
    if (req.method === "GET" && path.replace(/\/+$/, "") === "/stats") {
      sendJson(res, 200, stats.snapshot());
      return;
    }
    const route = matchRoute(req.method, path);
    const done = stats.open(route?.endpoint ?? "unknown");
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) {
        stats.aborted();
        controller.abort();
      }
      done();
    });
    const protocol: Protocol = route?.protocol ?? (req.headers["anthropic-version"] ? "anthropic" : "openai");
    if (!route) return reply(res, protocol, "notFound", `Invalid URL (${req.method ?? "?"} ${path})`);
    if (opts.requireKey !== undefined && !presentedKeys(req).includes(opts.requireKey)) {
      return reply(res, protocol, "unauthorized");
    }
    if (route.kind === "models") {
      if (sendJson(res, 200, MODEL_LIST)) stats.status(200);
      return;
    }
    await answerModel(req, res, route, controller.signal);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A bug in the mock itself: answer 500 so the test sees it rather than a hang.
      process.stderr.write(`mock LLM server: ${(err as Error)?.stack ?? String(err)}\n`);
      if (
        sendJson(res, 500, { error: { type: "mock_internal_error", message: String(err), param: null, code: null } })
      ) {
        stats.status(500);
      }
    });
  });
  const host = opts.host ?? MOCK_DEFAULTS.host;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults(next) {
      faults = { ...next };
      pickFault = createFaultPicker(faults, seed);
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Hung requests and idle keep-alive sockets would otherwise hold close() open forever.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
