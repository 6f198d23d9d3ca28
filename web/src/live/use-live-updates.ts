/**
 * useLiveUpdates(identity): the page's live stream (`GET /api/stream`, SPEC §12) applied to the data cache. One
 * connection for the page (live-connection.ts), opened again when the player signs in or out (`identity`: the
 * user id, null signed out, undefined while the stored session is being checked: no connection yet).
 *
 * Each message becomes cache effects (stream-messages.ts): events patched in place (a new price, a closed
 * market), the player's balance written, and key prefixes invalidated — gathered for 50 ms so a settle's burst
 * (event, predictions, balance, ladders) refetches each query once. A change of one of the player's bets also
 * becomes a toast ("Your bet on Liverpool (Liverpool v Everton) won 215 credits."). Every new connection resumes
 * from the last event received (the server replays what was missed, or sends `reset`, which invalidates
 * everything); one that cannot (no event received yet) invalidates everything itself.
 *
 * Returns the connection's state (for the offline banner, and for polling only while the stream is down), the
 * toasts, `dismiss(id)` and `pauseToasts()`; LiveProvider (live-provider.tsx) passes them down through LiveContext.
 */
import { createContext } from "preact";
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, type EventPage, type PredictionItem, type ReclaimInfo, type SportEvent } from "../api";
import { matchName, outcomeLabel } from "../betting/markets";
import { refetchAfterChange, writeChange } from "../cache-writes";
import { queryClient } from "../use-resource";
import { type LiveState, openLiveConnection } from "./live-connection";
import { predictionToast, type Toast } from "./prediction-toast";
import {
  type CacheKey,
  cacheEffectsOf,
  coveringPrefixes,
  parseStreamMessage,
  patchedEvent,
  STREAM_EVENT_NAMES,
  type StreamMessage,
  streamedPrefixes,
} from "./stream-messages";

export const STREAM_URL = "/api/stream";
const BATCH_MS = 50;
const TOAST_MS = 12_000;
const MAX_TOASTS = 3;

export interface LiveUpdates {
  state: LiveState;
  toasts: Toast[];
  dismiss(id: string): void;
  pauseToasts(paused: boolean): void;
}

/** The page's live updates (live-provider.tsx provides them): the notices read it, the slip its state. */
export const LiveContext = createContext<LiveUpdates>({
  state: "connecting",
  toasts: [],
  dismiss: () => {},
  pauseToasts: () => {},
});
export const useLive = (): LiveUpdates => useContext(LiveContext);
/** The live stream's state, for components that poll only while it is down. */
export const useLiveState = (): LiveState => useContext(LiveContext).state;

/** Written so that no answer requested before the message replaces it (../cache-writes.ts). */
function applyEventPatch(patch: NonNullable<ReturnType<typeof cacheEffectsOf>["patchEvent"]>): void {
  const { eventId, ...change } = patch;
  writeChange<SportEvent>(queryClient, { queryKey: ["event", eventId], exact: true }, (ev) =>
    ev ? patchedEvent(ev, change) : ev,
  );
  writeChange<EventPage>(queryClient, { queryKey: ["events"] }, (page) =>
    page?.items.some((e) => e.id === eventId)
      ? { ...page, items: page.items.map((e) => (e.id === eventId ? patchedEvent(e, change) : e)) }
      : page,
  );
}

function applyBalance(userId: string, credits: number): void {
  for (const key of [
    ["player", userId, "balance"],
    ["player", userId, "reclaim"],
  ]) {
    writeChange<ReclaimInfo>(queryClient, { queryKey: key, exact: true }, (info) =>
      info ? { ...info, balance: credits } : info,
    );
  }
}

/** `Liverpool (Liverpool v Everton)` for one of the player's bets: from the cache, else his latest bets. */
async function pickOf(userId: string, predictionId: string): Promise<string | null> {
  const describe = (p: PredictionItem) =>
    `${outcomeLabel(p.event, p.market, p.outcome)} (${matchName(p.event)})`;
  for (const [, data] of queryClient.getQueriesData<{ items?: unknown }>({ queryKey: ["player", userId] })) {
    const items = Array.isArray(data?.items) ? (data.items as PredictionItem[]) : [];
    const found = items.find((p) => p?.id === predictionId && p.event !== undefined);
    if (found) return describe(found);
  }
  try {
    // One request for a burst (a settle of several of my bets), shared through the cache.
    const latest = await queryClient.fetchQuery({
      queryKey: ["player", userId, "predictions", "latest"],
      queryFn: () => api.predictions({ limit: 20 }),
      staleTime: 2_000,
    });
    const found = latest.items.find((p) => p.id === predictionId);
    return found ? describe(found) : null;
  } catch {
    return null;
  }
}

export function useLiveUpdates(identity: string | null | undefined): LiveUpdates {
  const [state, setState] = useState<LiveState>("connecting");
  const [toasts, setToasts] = useState<Toast[]>([]);
  const shown = useRef(new Set<string>());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const paused = useRef(false);
  // The last event received, so the connection opened at a sign-in or sign-out resumes from it.
  const lastEvent = useRef<{ id: string | null }>({ id: null });

  const dismiss = useCallback((id: string) => {
    const t = timers.current.get(id);
    if (t !== undefined) clearTimeout(t);
    timers.current.delete(id);
    setToasts((list) => list.filter((x) => x.id !== id));
  }, []);
  const expireLater = useCallback(
    (id: string) => {
      timers.current.set(
        id,
        setTimeout(() => {
          if (paused.current) expireLater(id);
          else dismiss(id);
        }, TOAST_MS),
      );
    },
    [dismiss],
  );
  const pauseToasts = useCallback((p: boolean) => {
    paused.current = p;
  }, []);
  const addToast = useCallback(
    (toast: Toast) => {
      if (shown.current.has(toast.id)) return; // a replayed message
      shown.current.add(toast.id);
      setToasts((list) => [...list.slice(-(MAX_TOASTS - 1)), toast]);
      expireLater(toast.id);
    },
    [expireLater],
  );

  useEffect(() => {
    if (identity === undefined) return;
    const userId = identity;
    let pending: CacheKey[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      flushTimer = null;
      const keys = coveringPrefixes(pending);
      pending = [];
      for (const key of keys) void refetchAfterChange(queryClient, key);
    };
    const invalidateSoon = (keys: CacheKey[]) => {
      if (keys.length === 0) return;
      pending.push(...keys);
      flushTimer ??= setTimeout(flush, BATCH_MS);
    };
    const onMessage = (message: StreamMessage) => {
      const effects = cacheEffectsOf(message, userId);
      if (effects.patchEvent) applyEventPatch(effects.patchEvent);
      if (effects.balance !== null && userId) applyBalance(userId, effects.balance);
      invalidateSoon(effects.invalidate);
      if (message.type === "prediction" && userId) {
        const id = message.predictionId;
        void pickOf(userId, id).then((pick) => {
          const toast = predictionToast(message, pick);
          if (toast) addToast(toast);
        });
      }
    };
    const close = openLiveConnection({
      url: STREAM_URL,
      events: STREAM_EVENT_NAMES,
      lastEvent: lastEvent.current,
      onMessage: (name, data) => {
        const message = parseStreamMessage(name, data);
        if (message) onMessage(message);
      },
      onState: setState,
      // A connection that could not resume (no event received yet) missed what happened before it connected:
      // also the page's first, whose data was read while it was connecting. What the stream reports is read
      // again, once (streamedPrefixes).
      onOpen: ({ resumed }) => {
        if (!resumed) invalidateSoon(streamedPrefixes(userId));
      },
    });
    return () => {
      close();
      if (flushTimer !== null) clearTimeout(flushTimer);
    };
  }, [identity, addToast]);

  useEffect(
    () => () => {
      for (const t of timers.current.values()) clearTimeout(t);
    },
    [],
  );

  return useMemo(() => ({ state, toasts, dismiss, pauseToasts }), [state, toasts, dismiss, pauseToasts]);
}
