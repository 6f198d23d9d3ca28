/**
 * useOddsMoves(markets): which outcomes' prices just moved, and which way, for a brief highlight: `{"1x2/draw":
 * "up"}` for `HIGHLIGHT_MS` after the markets shown change (a live `odds` message patches them in the cache).
 * The first markets seen are the baseline: nothing is highlighted when a card first appears.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { Market } from "../api";

export type OddsMove = "up" | "down";
export const HIGHLIGHT_MS = 3_000;

const pricesOf = (markets: Market[]) =>
  new Map(markets.flatMap((m) => m.outcomes.map((o) => [`${m.key}/${o.key}`, o.odds] as const)));

/** The outcomes (`market/outcome`) whose price differs between `before` and `after`, with the direction. */
export function oddsMoves(before: Market[], after: Market[]): Record<string, OddsMove> {
  const old = pricesOf(before);
  const moves: Record<string, OddsMove> = {};
  for (const [key, odds] of pricesOf(after)) {
    const was = old.get(key);
    if (was !== undefined && was !== odds) moves[key] = odds > was ? "up" : "down";
  }
  return moves;
}

export function useOddsMoves(markets: Market[]): Record<string, OddsMove> {
  const previous = useRef<Market[] | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [moves, setMoves] = useState<Record<string, OddsMove>>({});
  useEffect(() => {
    const before = previous.current;
    previous.current = markets;
    if (!before) return;
    const moved = oddsMoves(before, markets);
    const keys = Object.keys(moved);
    if (keys.length === 0) return;
    setMoves((m) => ({ ...m, ...moved }));
    for (const key of keys) {
      const running = timers.current.get(key);
      if (running !== undefined) clearTimeout(running);
      timers.current.set(
        key,
        setTimeout(() => {
          timers.current.delete(key);
          setMoves(({ [key]: _, ...rest }) => rest);
        }, HIGHLIGHT_MS),
      );
    }
  }, [markets]);
  useEffect(
    () => () => {
      for (const t of timers.current.values()) clearTimeout(t);
    },
    [],
  );
  return moves;
}
