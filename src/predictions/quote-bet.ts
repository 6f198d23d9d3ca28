/**
 * `POST /api/pred2earn/quote`: the price of a version-2 bet, signed for the signed-in wallet.
 *
 * Contract:
 * - The user must have a wallet (403: the quote names the bettor), and the service an odds signer
 *   (409 QUOTES_UNAVAILABLE otherwise).
 * - The event, market and outcome must exist (404) and the event be open (409 EVENT_CLOSED); the outcome must be
 *   among the first 256 of its market (its on-chain index is a uint8; 404 otherwise).
 * - The quote is the outcome's current odds, for this bettor, until now + QUOTE_TTL_SECONDS but never at or after
 *   kickoff, signed (EIP-712, quote-typed-data.ts) with the odds signer's key for CHAIN_ID and the betting
 *   contract. It is stored by its digest: a BetPlaced log counts only when its quote is one of these.
 */
import { type Address, getAddress, type Hex } from "viem";
import { onchainMarketId, onchainOutcome } from "../../contracts/bet-encoding.js";
import { type QuoteMessage, quoteDigest, signQuote } from "../../contracts/quote-typed-data.js";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { findEvent, type StoredMarket } from "../events/events.js";
import { assertEventOpen } from "./bet-rules.js";
import { quoteExpiry } from "./onchain-bet-rules.js";
import { insertQuote } from "./predictions.repository.js";

export interface QuoteDeps {
  db: Db;
  clock: Clock;
  /** The odds signer and the chain it signs for; null when no signer is configured. */
  signer: { key: Hex; address: Address; chainId: number; contract: Address; ttlSeconds: number } | null;
}

export interface QuoteResult {
  eventId: string;
  market: string;
  outcome: string;
  oddsMilli: bigint;
  expiresAt: Date;
  chainId: number;
  contract: Address;
  message: QuoteMessage;
  signature: Hex;
}

export async function quoteBet(
  deps: QuoteDeps,
  input: { userId: bigint; walletLower: string | null; eventId: string; market: string; outcome: string },
): Promise<QuoteResult> {
  if (!input.walletLower)
    throw new AppError("FORBIDDEN", "Sign in with a wallet to get a quote for an on-chain bet");
  const signer = deps.signer;
  if (!signer) {
    throw new AppError(
      "QUOTES_UNAVAILABLE",
      "On-chain bets are not available: this service has no odds signer",
    );
  }
  const event = await findEvent(deps.db, input.eventId);
  if (!event) throw new AppError("NOT_FOUND", `Event ${input.eventId} not found`);
  const markets = event.markets as StoredMarket[];
  const offered = markets.find((m) => m.key === input.market)?.outcomes.find((o) => o.key === input.outcome);
  const index = onchainOutcome(markets, input.market, input.outcome);
  if (!offered || index === null) {
    throw new AppError(
      "NOT_FOUND",
      `Event ${event.id} has no outcome ${input.outcome} in market ${input.market}`,
    );
  }
  const now = deps.clock.now();
  assertEventOpen(event, now);
  const expiry = quoteExpiry(now, event.kickoffAt, signer.ttlSeconds);
  const message: QuoteMessage = {
    bettor: getAddress(input.walletLower),
    marketId: onchainMarketId(event.id, input.market),
    outcome: index,
    odds: BigInt(offered.oddsMilli),
    expiry,
  };
  const signature = await signQuote(signer.key, signer.chainId, signer.contract, message);
  const expiresAt = new Date(Number(expiry) * 1000);
  await insertQuote(deps.db, {
    digest: quoteDigest(signer.chainId, signer.contract, message).toLowerCase(),
    userId: input.userId,
    bettor: input.walletLower,
    chainId: signer.chainId,
    contract: signer.contract.toLowerCase(),
    signer: signer.address.toLowerCase(),
    eventId: event.id,
    market: input.market,
    outcome: input.outcome,
    marketId: message.marketId,
    outcomeIndex: index,
    oddsMilli: message.odds,
    expiresAt,
    signature,
  });
  return {
    eventId: event.id,
    market: input.market,
    outcome: input.outcome,
    oddsMilli: message.odds,
    expiresAt,
    chainId: signer.chainId,
    contract: getAddress(signer.contract),
    message,
    signature,
  };
}
