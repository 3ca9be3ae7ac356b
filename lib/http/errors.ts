/**
 * One mapping from errors to HTTP responses, used by every route handler: zod errors → 422 naming the
 * field, AppError → its status, Prisma "not found" → 404, anything else → logged, generic 500.
 */
import { ZodError } from "zod";
import type { ApiErrorBody } from "../contracts/api";
import { isAppError } from "../errors";

export function errorBody(code: string, message: string, field?: string): ApiErrorBody {
  return { error: field ? { code, message, field } : { code, message } };
}

export function toHttpResponse(err: unknown, context: string): Response {
  if (err instanceof ZodError) {
    const issue = err.issues[0]!;
    const field = issue.path.join(".");
    return Response.json(
      errorBody("INVALID_REQUEST", field ? `${field}: ${issue.message}` : issue.message, field || undefined),
      { status: 422 },
    );
  }
  if (isAppError(err)) {
    return Response.json(errorBody(err.code, err.userMessage ?? err.message, err.field), { status: err.status });
  }
  if ((err as { code?: string })?.code === "P2025")
    return Response.json(errorBody("NOT_FOUND", "not found"), { status: 404 });
  console.error(`[api] ${context} failed:`, err);
  return Response.json(errorBody("INTERNAL", "internal error; see the server log"), { status: 500 });
}

/** Runs a handler body and maps any error. */
export async function handle(context: string, fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    return toHttpResponse(err, context);
  }
}

/** JSON bodies are read with a size cap and a depth check; see ./body.ts. */
export { jsonBody } from "./body";
