/**
 * The URL table of the mock server. Model routes say which wire format they speak; Azure's path forms
 * (deployment in the path, `api-version` in the query) map onto the OpenAI formats.
 */
import type { Completion, Prompt } from "./answer";
import { formatMessage, parseMessages } from "./anthropic";
import type { Protocol } from "./errors";
import { formatChatCompletion, formatResponse, parseChatCompletions, parseResponses, type Parsed } from "./openai";
import type { MockEndpoint } from "./types";

export interface ModelRoute {
  kind: "model";
  endpoint: MockEndpoint;
  protocol: Protocol;
  parse(body: unknown): Parsed;
  format(p: Prompt, c: Completion, id: string): unknown;
}

export type Route = ModelRoute | { kind: "models"; endpoint: "models"; protocol: Protocol };

const chat = (endpoint: MockEndpoint, deployment?: string): ModelRoute => ({
  kind: "model",
  endpoint,
  protocol: "openai",
  parse: (body) => parseChatCompletions(body, deployment),
  format: formatChatCompletion,
});

const responses: ModelRoute = {
  kind: "model",
  endpoint: "responses",
  protocol: "openai",
  parse: parseResponses,
  format: formatResponse,
};

const messages: ModelRoute = {
  kind: "model",
  endpoint: "messages",
  protocol: "anthropic",
  parse: parseMessages,
  format: formatMessage,
};

const AZURE_DEPLOYMENT = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

/** The route for a method and path (trailing slashes ignored), or null for a 404. */
export function matchRoute(method: string | undefined, rawPath: string): Route | null {
  const path = rawPath.replace(/\/+$/, "") || "/";
  if (method === "GET") {
    if (path === "/v1/models" || path === "/openai/models" || path === "/openai/v1/models") {
      return { kind: "models", endpoint: "models", protocol: "openai" };
    }
    return null;
  }
  if (method !== "POST") return null;
  switch (path) {
    case "/v1/chat/completions":
      return chat("chat.completions");
    case "/openai/v1/chat/completions":
      return chat("azure.chat.completions");
    case "/v1/responses":
    case "/openai/responses":
    case "/openai/v1/responses":
      return responses;
    case "/v1/messages":
      return messages;
  }
  const azure = AZURE_DEPLOYMENT.exec(path);
  if (azure?.[1]) return chat("azure.chat.completions", safeDecode(azure[1]));
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed %-escape: keep the raw deployment name
  }
}

export const MODEL_LIST = {
  object: "list",
  data: [
    { id: "sim-optimizer", object: "model", created: 0, owned_by: "skillopt" },
    { id: "sim-target", object: "model", created: 0, owned_by: "skillopt" },
  ],
};
