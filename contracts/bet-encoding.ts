/**
 * How a bet of the service (string event id, market key, outcome key) is written on-chain, in a quote and in
 * `BetPlaced`.
 *
 * Contract:
 * - `marketId` (bytes32) = keccak256 of the UTF-8 text "<eventId>/<market>": one id per market of an event. "/" can
 *   appear in neither an event id nor a market key, so the text is unambiguous.
 * - `outcome` (uint8) = zero-based position of the outcome in that market's outcome list, as the events API
 *   serves it (`GET /api/events/:id`) when the quote is issued; a market has at most 256 outcomes on-chain.
 * - `amount` = stake in micro-USDC (USDC has 6 decimals), `odds` = decimal odds in thousandths (2.15 → 2150).
 * - Pure: no I/O.
 */
import { type Hex, keccak256, stringToBytes } from "viem";

export interface MarketOutcomes {
  key: string;
  outcomes: ReadonlyArray<{ key: string }>;
}

/** The bytes32 `marketId` of a quote and of BetPlaced for a market of an event. */
export function onchainMarketId(eventId: string, market: string): Hex {
  return keccak256(stringToBytes(`${eventId}/${market}`));
}

/** The uint8 `outcome` of a quote for an outcome of a market; null when the market or outcome does not exist. */
export function onchainOutcome(
  markets: ReadonlyArray<MarketOutcomes>,
  market: string,
  outcome: string,
): number | null {
  const index = markets.find((m) => m.key === market)?.outcomes.findIndex((o) => o.key === outcome) ?? -1;
  return index >= 0 && index <= 255 ? index : null;
}
