/**
 * Writing a change the server reported into the page's data cache so that it stays: an answer requested BEFORE
 * the change arrived (a first load, a refocus refetch still in flight) must not land on top of it afterwards.
 *
 * The stream sends a change only after its transaction committed, so an answer requested after the message arrived
 * already holds it, and one requested before may not. TanStack Query alone does not see the difference:
 * `setQueryData` during a fetch is overwritten by that fetch's answer, and an invalidation during a first load
 * joins the load in flight instead of asking again (it cancels a fetch only when the query already has data). Both
 * lost a price change on an open slip until the next reload (docs/decisions.md, "A change the stream reports wins
 * over answers requested before it").
 *
 * So, for the queries a change touches:
 * - on screen and fetching: the fetch is cancelled (the query goes back to what it held before it), the change is
 *   written, and the query is fetched again;
 * - not on screen and fetching (e.g. a `fetchQuery` someone awaits): its caller still gets its answer, and the query
 *   is marked stale once it lands, so whoever shows it next asks again;
 * - idle: the change is written in place (no request).
 */
import type { Query, QueryClient, QueryFilters, QueryKey } from "@tanstack/query-core";

/** Cancels the fetches in flight of the queries on screen matching `filters` (returned); see the module's note. */
function holdBackInFlight(client: QueryClient, filters: QueryFilters): Query[] {
  const cache = client.getQueryCache();
  const onScreen = cache.findAll({ ...filters, type: "active", fetchStatus: "fetching" });
  for (const query of onScreen) void query.cancel({ revert: true });
  for (const query of cache.findAll({ ...filters, type: "inactive", fetchStatus: "fetching" })) {
    const landed = query.promise?.then(
      () => {},
      () => {},
    );
    void landed?.then(() => client.invalidateQueries({ queryKey: query.queryKey, exact: true }));
  }
  return onScreen;
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
  const cancelled = holdBackInFlight(client, filters);
  client.setQueriesData<T>(filters, update);
  for (const query of cancelled) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
}

/**
 * Marks every query under `prefix` (`[]`: all) stale and refetches those on screen, so that no answer requested
 * before this call is the last word.
 */
export function refetchAfterChange(client: QueryClient, prefix: QueryKey): Promise<void> {
  holdBackInFlight(client, { queryKey: prefix });
  return client.invalidateQueries({ queryKey: prefix });
}
