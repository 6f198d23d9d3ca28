/** Odds as text in the player's chosen format (decimal, fractional or American), for any component. */
import { formatOddsAs } from "./odds-format";
import { useSlip } from "./slip-store";

export function useOddsText(): (odds: number) => string {
  const { oddsFormat } = useSlip();
  return (odds) => formatOddsAs(odds, oddsFormat);
}
