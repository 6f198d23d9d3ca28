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
  const loaded = meta.status === "ok";
  const offsetMs = loaded ? meta.data.offsetMs : 0;
  const serverNow = useCallback(() => new Date(Date.now() + offsetMs), [offsetMs]);
  /**
   * The server's time for a message the server checks against its own clock (a sign-in's `issuedAt`): `serverNow()`
   * once the meta is in, else the `now` of a meta read at once. Before the meta has loaded, `serverNow()` is this
   * device's time, and a device more than a minute off the server's clock had its first sign-in refused (401,
   * "issued in the future").
   */
  const serverTime = useCallback(
    async () => (loaded ? serverNow() : new Date((await api.meta()).now)),
    [loaded, serverNow],
  );
  return { meta, serverNow, serverTime };
}

export type ServerMeta = ReturnType<typeof useServerMeta>["meta"];
