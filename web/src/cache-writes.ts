/**
 * Writing a change the server reported into the page's data cache so that it stays: an answer requested BEFORE
 * the change arrived (a first load, a refocus refetch still in flight) must not have the last word.
 *
 * The stream sends a change only after its transaction committed, so an answer requested after the message arrived
 * already holds it, and one requested before may not. TanStack Query alone does not see the difference:
 * `setQueryData` during a fetch is overwritten by that fetch's answer, and an invalidation during a first load
 * joins the load in flight instead of asking again. Both lost a price change on an open slip until the next
 * reload (docs/decisions.md, "A change the stream reports wins over answers requested before it").
 *
 * So, for the queries a change touches:
 * - idle: the change is written in place (no request);
 * - fetching: the change is written now (where there is data), and again onto the answer when it lands, which is
 *   then shown and read once more (one new request however many changes came meanwhile). The fetch in flight is
 *   not cancelled: under changes that come faster than an answer (a busy ladder changes every second), cancelling
 *   would keep a slow page loading for good, where this shows every answer and asks again.
 */
import type { Query, QueryClient, QueryFilters, QueryKey } from "@tanstack/query-core";

type Update = (data: unknown) => unknown;

/** For each query fetching now: the writes to put onto its answer when it lands. */
const pending = new WeakMap<Query, Update[]>();

/**
 * Records `update` (none: only a new read) for every query matching `filters` that is fetching, to be applied to
 * the answer when it lands; the query is then read again.
 */
function afterInFlight(client: QueryClient, filters: QueryFilters, update: Update | null): void {
  for (const query of client.getQueryCache().findAll({ ...filters, fetchStatus: "fetching" })) {
    const updates = pending.get(query);
    if (updates) {
      if (update) updates.push(update);
      continue;
    }
    const fresh: Update[] = update ? [update] : [];
    pending.set(query, fresh);
    // The query stores its answer before this runs (it awaited the same promise first).
    const landed = (query.promise ?? Promise.resolve()).then(
      () => {},
      () => {},
    );
    void landed.then(() => {
      pending.delete(query);
      if (fresh.length > 0)
        client.setQueryData(query.queryKey, (data: unknown) => fresh.reduce((d, u) => u(d), data));
      return client.invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false });
    });
  }
}

/**
 * Writes `update` into every cached query matching `filters` (`update` gets undefined for a query without data
 * and may return it unchanged), so that no answer requested before this call replaces it.
 */
export function writeChange<T>(
  client: QueryClient,
  filters: QueryFilters,
  update: (data: T | undefined) => T | undefined,
): void {
  afterInFlight(client, filters, update as Update);
  client.setQueriesData<T>(filters, update);
}

/**
 * Marks every query under `prefix` (`[]`: all) stale and refetches those on screen, so that no answer requested
 * before this call is the last word.
 */
export function refetchAfterChange(client: QueryClient, prefix: QueryKey): Promise<void> {
  afterInFlight(client, { queryKey: prefix }, null);
  return client.invalidateQueries({ queryKey: prefix }, { cancelRefetch: false });
}
