/**
 * Error responses in each provider's own envelope, so the SDKs raise the same error classes (and the
 * backends' classifiers see the same `type`/`code` fields) as against the real services.
 */
export type Protocol = "openai" | "anthropic";

export type ErrorKind = "badRequest" | "notFound" | "unauthorized" | "rateLimited" | "quotaExhausted" | "server";

interface ErrorSpec {
  status: number;
  /** `error.type` in OpenAI's envelope and in Anthropic's. */
  type: Record<Protocol, string>;
  code: string | null;
  message: string;
}

const SPECS: Record<ErrorKind, ErrorSpec> = {
  badRequest: {
    status: 400,
    type: { openai: "invalid_request_error", anthropic: "invalid_request_error" },
    code: null,
    message: "Invalid request",
  },
  notFound: {
    status: 404,
    type: { openai: "invalid_request_error", anthropic: "not_found_error" },
    code: "unknown_url",
    message: "Not found",
  },
  unauthorized: {
    status: 401,
    type: { openai: "invalid_request_error", anthropic: "authentication_error" },
    code: "invalid_api_key",
    message: "Incorrect API key provided",
  },
  rateLimited: {
    status: 429,
    type: { openai: "requests", anthropic: "rate_limit_error" },
    code: "rate_limit_exceeded",
    message: "Rate limit reached for requests (injected by the mock LLM server). Please try again later.",
  },
  // Anthropic has no quota 429 of its own; the OpenAI type/code are kept so one classifier fits both.
  quotaExhausted: {
    status: 429,
    type: { openai: "insufficient_quota", anthropic: "insufficient_quota" },
    code: "insufficient_quota",
    message:
      "You exceeded your current quota, please check your plan and billing details (injected by the mock LLM server).",
  },
  server: {
    status: 500,
    type: { openai: "server_error", anthropic: "api_error" },
    code: null,
    message: "The server had an error while processing your request (injected by the mock LLM server).",
  },
};

export interface ErrorReply {
  status: number;
  body: unknown;
}

/** The status and JSON body of one error; `detail` replaces the default message. */
export function errorReply(protocol: Protocol, kind: ErrorKind, detail?: string): ErrorReply {
  const spec = SPECS[kind];
  const message = detail ?? spec.message;
  const type = spec.type[protocol];
  if (protocol === "openai") {
    return { status: spec.status, body: { error: { message, type, param: null, code: spec.code } } };
  }
  const error = spec.code === null ? { type, message } : { type, code: spec.code, message };
  return { status: spec.status, body: { type: "error", error } };
}
