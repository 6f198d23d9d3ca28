/**
 * The competition's meta (GET /api/competition/meta) and the server's clock derived from it: `serverNow()` is this
 * device's time moved by the offset the meta's `now` showed (the server's clock may be pinned or differ).
 */
import { useCallback } from "preact/hooks";
import { api } from "./api";
import { useResource } from "./use-resource";

export function useServerMeta() {
  const meta = useResource(["meta"], async () => {
    const m = await api.meta();
    return { meta: m, offsetMs: Date.parse(m.now) - Date.now(), loadedAt: performance.now() };
  });
  const offsetMs = meta.status === "ok" ? meta.data.offsetMs : 0;
  const serverNow = useCallback(() => new Date(Date.now() + offsetMs), [offsetMs]);
  return { meta, serverNow };
}

export type ServerMeta = ReturnType<typeof useServerMeta>["meta"];
