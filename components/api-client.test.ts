import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, UNREACHABLE_MESSAGE } from "./api-client";

afterEach(() => vi.unstubAllGlobals());

describe("api client when the server does not answer", () => {
  it("turns the browser's network failure into a plain message with status 0", async () => {
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    const err = await api.getRun("x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, code: "UNREACHABLE", message: UNREACHABLE_MESSAGE });
    expect((err as Error).message).not.toMatch(/Failed to fetch/);
  });

  it("lets an abort through as an abort", async () => {
    const abort = Object.assign(new Error("aborted"), { name: "AbortError" });
    vi.stubGlobal("fetch", () => Promise.reject(abort));
    await expect(api.getRun("x")).rejects.toBe(abort);
  });

  it("keeps the server's own error and field for an HTTP answer", async () => {
    const body = { error: { code: "INVALID_REQUEST", message: "note: too long", field: "note" } };
    vi.stubGlobal("fetch", () => Promise.resolve(new Response(JSON.stringify(body), { status: 422 })));
    await expect(api.setRunAnnotations("x", { tags: [], note: "n" })).rejects.toMatchObject({
      status: 422,
      field: "note",
    });
  });
});
