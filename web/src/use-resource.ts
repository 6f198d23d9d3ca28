/**
 * The page's data cache: TanStack Query's framework-agnostic core (`@tanstack/query-core`), one `QueryClient` for
 * the whole page, read through `useResource(key, load)` (a QueryObserver per component, the few lines the official
 * adapters hold; `@tanstack/preact-query` itself declares Preact 10 only).
 *
 * - A key is an array (`["ladder", 3, "champions", 1]`); a new key shows the loading state, answers for a key the
 *   page has moved away from are dropped, and two components with one key share one request.
 * - `refresh()` reloads in the background (what is on screen stays, also when the refresh fails); `reload()`
 *   shows the loading state again (the "Try again" buttons).
 * - Invalidation is how anything that knows the server changed tells the page (`invalidate(["player"])` after a
 *   write; the live stream per message, live/use-live-updates.ts): every matching query on screen refetches in the
 *   background, the others when next shown. The stream also writes what it carries (a price, a status) straight
 *   into the cached queries.
 */
import {
  QueriesObserver,
  QueryClient,
  type QueryKey,
  QueryObserver,
  type QueryObserverOptions,
} from "@tanstack/query-core";
import { useEffect, useReducer, useRef, useState } from "preact/hooks";
import { refetchAfterChange } from "./cache-writes";

export type Resource<T> =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ok"; data: T; refreshing: boolean }
  | { status: "error"; error: Error };

export type ResourceKey = readonly (string | number | boolean | null)[];

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Data shown is re-read when invalidated, when the window comes back into view, and by the pages' own
      // intervals; a second component mounting the same key within 5 s reuses the answer.
      staleTime: 5_000,
      gcTime: 5 * 60_000,
      retry: false,
      refetchOnWindowFocus: true,
      refetchOnReconnect: true,
    },
  },
});
// Listens to the window's focus and the network (what the framework adapters' providers do): stale queries on
// screen refetch when the page comes back into view or online.
queryClient.mount();

/**
 * Marks every query whose key starts with `prefix` stale; those on screen refetch in the background, and no answer
 * requested before this call has the last word (cache-writes.ts).
 */
export function invalidate(prefix: QueryKey): Promise<void> {
  return refetchAfterChange(queryClient, prefix);
}

/** Forgets every query whose key starts with `prefix` (the player's data at sign-out). */
export function forget(prefix: QueryKey): void {
  queryClient.removeQueries({ queryKey: prefix });
}

/**
 * Resolves once no query whose key starts with `prefix` is being fetched, or after `maxMs` (what sign-out waits
 * for: a read of the player's that reached the server after the session ended would be refused, 401).
 */
export function fetchesSettled(prefix: QueryKey, maxMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const cache = queryClient.getQueryCache();
    let unsubscribe = () => {};
    const timer = setTimeout(() => done(), maxMs);
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const check = () => {
      if (queryClient.isFetching({ queryKey: prefix }) === 0) done();
    };
    unsubscribe = cache.subscribe(check);
    check();
  });
}

export interface ResourceOptions {
  /** Refetch this often while shown (polling: what the live stream does not cover, or while it is down). */
  refetchIntervalMs?: number;
  /** How long an answer counts as fresh (default 5 s): 0 refetches on every focus or mount. */
  staleMs?: number;
  /** While true, nothing is asked (no load, refetch or refresh); what is cached stays shown. */
  paused?: boolean;
}

const queryOptions = (opts: ResourceOptions) => ({
  refetchInterval: opts.refetchIntervalMs ?? (false as const),
  ...(opts.staleMs !== undefined ? { staleTime: opts.staleMs } : {}),
});

export function useResource<T>(
  key: ResourceKey | null,
  load: () => Promise<T>,
  opts: ResourceOptions = {},
): Resource<T> & { reload: () => void; refresh: () => void } {
  const loadRef = useRef(load);
  loadRef.current = load;
  const options = queryClient.defaultQueryOptions({
    queryKey: (key ?? ["idle"]) as QueryKey,
    // `load` is read through a ref: callers may pass a new closure on every render.
    queryFn: () => loadRef.current(),
    enabled: key !== null && !opts.paused,
    ...queryOptions(opts),
  });
  const [observer] = useState(() => new QueryObserver<T>(queryClient, options));
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => observer.subscribe(() => rerender(0)), [observer]);
  useEffect(() => {
    observer.setOptions(options);
  });
  const result = observer.getOptimisticResult(options);

  let value: Resource<T>;
  if (key === null) value = { status: "idle" };
  else if (result.data !== undefined)
    value = { status: "ok", data: result.data, refreshing: result.isFetching };
  else if (result.status === "error") {
    const error = result.error instanceof Error ? result.error : new Error(String(result.error));
    value = { status: "error", error };
  } else value = { status: "loading" };

  const keyRef = useRef(key);
  keyRef.current = key;
  const pausedRef = useRef(opts.paused);
  pausedRef.current = opts.paused;
  const [actions] = useState(() => ({
    refresh: () => {
      if (keyRef.current && !pausedRef.current) void observer.refetch();
    },
    reload: () => {
      if (keyRef.current)
        void queryClient.resetQueries({ queryKey: keyRef.current as QueryKey, exact: true });
    },
  }));
  return { ...value, ...actions };
}

/**
 * Several resources of one kind at once (the events of the bet slip's selections), each its own cached query:
 * the data of each (undefined while loading or when it failed) and whether it failed.
 */
export function useResources<T>(
  items: { key: ResourceKey; load: () => Promise<T> }[],
  opts: ResourceOptions = {},
): { key: ResourceKey; data: T | undefined; error: Error | null }[] {
  const options = items.map(
    (item) =>
      queryClient.defaultQueryOptions({
        queryKey: item.key as QueryKey,
        queryFn: item.load,
        ...queryOptions(opts),
      }) as QueryObserverOptions,
  );
  const [observer] = useState(() => new QueriesObserver(queryClient, options));
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => observer.subscribe(() => rerender(0)), [observer]);
  useEffect(() => {
    observer.setQueries(options);
  });
  const [results] = observer.getOptimisticResult(options, undefined);
  return items.map((item, i) => {
    const r = results[i];
    const error = r?.status === "error" && r.error instanceof Error ? r.error : null;
    return { key: item.key, data: r?.data as T | undefined, error };
  });
}
