import { QueryClient, type Query } from "@tanstack/react-query";
import { isApiError, shouldRetry } from "./api-client";

/** While a query's last try got no HTTP answer at all, it asks again this often (it has no poll of its own). */
export const UNREACHABLE_RETRY_MS = 5_000;

/**
 * The dashboard's query client. A query that failed because the server did not answer (stopped,
 * restarting; `ApiError` status 0) is not left showing that error once the server is back: it is asked again
 * every few seconds while it shows it, and at once when any other request of the page gets an answer.
 * Without this, a panel first drawn during an outage kept "the server is not answering" until a reload.
 */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
        // A query with its own poll (the run, the runs list) keeps it; that poll clears the error as well.
        refetchInterval: retryWhileUnreachable,
      },
    },
  });
  recoverAfterOutage(client);
  return client;
}

/** The default poll: none, except while the query shows an "unreachable" error. */
export function retryWhileUnreachable(query: Pick<Query, "state">): number | false {
  return failedUnanswered(query) ? UNREACHABLE_RETRY_MS : false;
}

/**
 * Each answer from the server (a query's success) asks again every query on screen that failed unanswered
 * and is not already asking. Returns the unsubscribe.
 */
export function recoverAfterOutage(client: QueryClient): () => void {
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success") return;
    const stale = (q: Query) => failedUnanswered(q) && q.state.fetchStatus === "idle";
    if (!client.getQueryCache().findAll({ type: "active", predicate: stale }).length) return;
    void client.refetchQueries({ type: "active", predicate: stale });
  });
}

function failedUnanswered(query: Pick<Query, "state">): boolean {
  return query.state.status === "error" && isApiError(query.state.error, 0);
}
