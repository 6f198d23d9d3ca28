/**
 * The bet slip's state, for the whole app (a Preact context provided by the app): the selections (each an outcome
 * of an event, the odds the player accepted for it and its stake), whether the phone's slip sheet is open, and the
 * player's settings kept in localStorage: the odds format and "always accept better odds".
 *
 * A selection's `odds` change only through `accept` (the player's click, or a better price taken on the standing
 * instruction): a refreshed price shows next to it, it is never taken silently.
 */
import { createContext } from "preact";
import { useCallback, useContext, useMemo, useState } from "preact/hooks";
import type { SportEvent } from "../api";
import { type OddsFormat, rememberOddsFormat, storedOddsFormat } from "./odds-format";

export interface SlipSelection {
  /** `eventId/market/outcome`. */
  id: string;
  eventId: string;
  market: string;
  outcome: string;
  /** The event when it was picked: names and labels. */
  event: SportEvent;
  /** The odds the bet is placed at: seen when picked, or accepted since. */
  odds: number;
  stake: string;
}

export interface Slip {
  selections: SlipSelection[];
  has(eventId: string, market: string, outcome: string): boolean;
  /** Adds the outcome at the odds shown, or removes it when it is already in the slip. */
  toggle(event: SportEvent, market: string, outcome: string): void;
  remove(id: string): void;
  removeAll(ids: string[]): void;
  setStake(id: string, stake: string): void;
  accept(id: string, odds: number): void;
  /** The phone's slip sheet. */
  open: boolean;
  setOpen(open: boolean): void;
  oddsFormat: OddsFormat;
  setOddsFormat(format: OddsFormat): void;
  acceptBetter: boolean;
  setAcceptBetter(on: boolean): void;
}

export const DEFAULT_STAKE = "100";
const ACCEPT_BETTER = "sp-competition.accept-better-odds";

const selectionId = (eventId: string, market: string, outcome: string) => `${eventId}/${market}/${outcome}`;

function storedAcceptBetter(): boolean {
  try {
    return localStorage.getItem(ACCEPT_BETTER) === "1";
  } catch {
    return false;
  }
}

export const SlipContext = createContext<Slip | null>(null);

export function useSlip(): Slip {
  const slip = useContext(SlipContext);
  if (!slip) throw new Error("useSlip outside SlipContext");
  return slip;
}

/** The slip's state and actions; the app provides it through SlipContext. */
export function useSlipState(): Slip {
  const [selections, setSelections] = useState<SlipSelection[]>([]);
  const [open, setOpen] = useState(false);
  const [oddsFormat, setFormat] = useState<OddsFormat>(storedOddsFormat);
  const [acceptBetter, setBetter] = useState(storedAcceptBetter);

  const update = useCallback((id: string, change: (s: SlipSelection) => SlipSelection) => {
    setSelections((list) => list.map((s) => (s.id === id ? change(s) : s)));
  }, []);

  const toggle = useCallback((event: SportEvent, market: string, outcome: string) => {
    const id = selectionId(event.id, market, outcome);
    const odds = event.markets.find((m) => m.key === market)?.outcomes.find((o) => o.key === outcome)?.odds;
    setSelections((list) => {
      if (list.some((s) => s.id === id)) return list.filter((s) => s.id !== id);
      if (odds === undefined) return list;
      const stake = list.at(-1)?.stake ?? DEFAULT_STAKE;
      return [...list, { id, eventId: event.id, market, outcome, event, odds, stake }];
    });
  }, []);

  return useMemo(
    () => ({
      selections,
      has: (eventId, market, outcome) =>
        selections.some((s) => s.id === selectionId(eventId, market, outcome)),
      toggle,
      remove: (id) => setSelections((list) => list.filter((s) => s.id !== id)),
      removeAll: (ids) => setSelections((list) => list.filter((s) => !ids.includes(s.id))),
      setStake: (id, stake) => update(id, (s) => ({ ...s, stake })),
      accept: (id, odds) => update(id, (s) => ({ ...s, odds })),
      open,
      setOpen,
      oddsFormat,
      setOddsFormat: (format) => {
        rememberOddsFormat(format);
        setFormat(format);
      },
      acceptBetter,
      setAcceptBetter: (on) => {
        try {
          localStorage.setItem(ACCEPT_BETTER, on ? "1" : "0");
        } catch {
          // Storage disabled: the setting lasts for this page only.
        }
        setBetter(on);
      },
    }),
    [selections, toggle, update, open, oddsFormat, acceptBetter],
  );
}
