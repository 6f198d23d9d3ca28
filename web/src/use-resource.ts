/**
 * useResource(key, load): loads data for a key and tracks loading / error / data. A new key shows the loading state;
 * `reload()` (or `refresh()`, which keeps the current data on screen) loads the same key again. Answers for a key
 * the page has moved away from are dropped.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export type Resource<T> =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ok"; data: T; refreshing: boolean }
  | { status: "error"; error: Error };

export function useResource<T>(
  key: string | null,
  load: () => Promise<T>,
): Resource<T> & { reload: () => void; refresh: () => void } {
  const [state, setState] = useState<{ key: string | null; value: Resource<T> }>({
    key: null,
    value: { status: "idle" },
  });
  const [generation, setGeneration] = useState({ n: 0, quiet: false });
  const loadRef = useRef(load);
  loadRef.current = load;

  // `generation` is the explicit reload trigger; `load` is read through a ref so callers may pass a new closure.
  useEffect(() => {
    if (key === null) {
      setState({ key, value: { status: "idle" } });
      return;
    }
    let current = true;
    setState((s) =>
      generation.quiet && s.key === key && s.value.status === "ok"
        ? { key, value: { ...s.value, refreshing: true } }
        : { key, value: { status: "loading" } },
    );
    loadRef.current().then(
      (data) => current && setState({ key, value: { status: "ok", data, refreshing: false } }),
      (error: unknown) =>
        current &&
        setState((s) =>
          // A failed background refresh keeps what is on screen; a failed load shows the error.
          generation.quiet && s.key === key && s.value.status === "ok"
            ? { key, value: { ...s.value, refreshing: false } }
            : {
                key,
                value: { status: "error", error: error instanceof Error ? error : new Error(String(error)) },
              },
        ),
    );
    return () => {
      current = false;
    };
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => ({ n: g.n + 1, quiet: false })), []);
  const refresh = useCallback(() => setGeneration((g) => ({ n: g.n + 1, quiet: true })), []);
  // Until the effect for a new key has run, report loading rather than the previous key's data.
  const value: Resource<T> =
    state.key === key ? state.value : key === null ? { status: "idle" } : { status: "loading" };
  return { ...value, reload, refresh };
}
