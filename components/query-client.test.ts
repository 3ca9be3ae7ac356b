import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, UNREACHABLE_MESSAGE } from "./api-client";
import { recoverAfterOutage, retryWhileUnreachable, UNREACHABLE_RETRY_MS } from "./query-client";

const unreachable = () => new ApiError({ status: 0, code: "UNREACHABLE", message: UNREACHABLE_MESSAGE });
const serverError = () => new ApiError({ status: 500, code: "HTTP_500", message: "500 Internal Server Error" });

const clients: QueryClient[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.clear()));

/** A client as the dashboard's, without retries or polls (node has no timers for observers' polls). */
function client(): QueryClient {
  const c = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  recoverAfterOutage(c);
  clients.push(c);
  return c;
}

/** A mounted query (an observer, as a panel on screen has) whose answer comes from `answer()`. */
function onScreen(c: QueryClient, key: string, answer: () => Promise<string>) {
  let asked = 0;
  const observer = new QueryObserver(c, {
    queryKey: [key],
    queryFn: () => {
      asked += 1;
      return answer();
    },
  });
  const unsubscribe = observer.subscribe(() => {});
  return { observer, asked: () => asked, unsubscribe };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("recovering after the server was unreachable", () => {
  it("asks again a query that failed unanswered as soon as another request gets an answer", async () => {
    const c = client();
    let up = false;
    const panel = onScreen(c, "panel", () => (up ? Promise.resolve("data") : Promise.reject(unreachable())));
    await settle();
    expect(panel.observer.getCurrentResult().error).toMatchObject({ status: 0 });

    up = true;
    await c.fetchQuery({ queryKey: ["poll"], queryFn: () => Promise.resolve("run") });
    await settle();
    expect(panel.asked()).toBe(2);
    expect(panel.observer.getCurrentResult()).toMatchObject({ status: "success", data: "data", error: null });
  });

  it("leaves an error the server answered with, and queries no longer on screen, alone", async () => {
    const c = client();
    const answered = onScreen(c, "answered", () => Promise.reject(serverError()));
    const gone = onScreen(c, "gone", () => Promise.reject(unreachable()));
    await settle();
    gone.unsubscribe();

    await c.fetchQuery({ queryKey: ["poll"], queryFn: () => Promise.resolve("run") });
    await settle();
    expect(answered.asked()).toBe(1);
    expect(gone.asked()).toBe(1);
  });

  it("does not ask again while the query is already asking, nor loop while the server is still down", async () => {
    const c = client();
    const failLater = () => new Promise<string>((_, reject) => setTimeout(() => reject(unreachable()), 10));
    const panel = onScreen(c, "panel", failLater);
    await settle();
    expect(panel.asked()).toBe(1);
    // Two answers while the panel's new try is on its way: one new try; its failure asks nothing more.
    await Promise.all([
      c.fetchQuery({ queryKey: ["a"], queryFn: () => Promise.resolve("a") }),
      c.fetchQuery({ queryKey: ["b"], queryFn: () => Promise.resolve("b") }),
    ]);
    await settle();
    await settle();
    expect(panel.asked()).toBe(2);
    expect(panel.observer.getCurrentResult().error).toMatchObject({ status: 0 });
  });
});

describe("the default poll", () => {
  const state = (status: string, error: unknown) =>
    ({ state: { status, error } }) as Parameters<typeof retryWhileUnreachable>[0];
  it("polls only while the query shows an unreachable error", () => {
    expect(retryWhileUnreachable(state("error", unreachable()))).toBe(UNREACHABLE_RETRY_MS);
    expect(retryWhileUnreachable(state("error", serverError()))).toBe(false);
    expect(retryWhileUnreachable(state("success", null))).toBe(false);
    expect(retryWhileUnreachable(state("pending", null))).toBe(false);
  });
});
