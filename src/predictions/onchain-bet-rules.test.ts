import { describe, expect, it } from "vitest";
import type { StoredMarket } from "../events/events.js";
import {
  type FoundBet,
  judgeChainBet,
  MAX_STAKE_MICRO,
  matchReport,
  type PlacedLog,
  quoteExpiry,
  type StoredQuote,
} from "./onchain-bet-rules.js";

const ALICE = "0x7e5f4552091a69125d5dfcb7b8c2659029395bdf";
const BOB = "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf";
const SIGNER = "0x6144310ddb61c8a19634621ee19a4dc02eea8d3a";
const MARKET_ID = `0x${"11".repeat(32)}`;
const KICKOFF = new Date("2026-11-25T18:00:00.000Z"); // Wed
const EXPIRES = new Date("2026-11-20T13:00:00.000Z"); // Fri
const EXPIRY = BigInt(EXPIRES.getTime() / 1000);

describe("quoteExpiry", () => {
  it("is now + ttl, in whole seconds", () => {
    // Fri 2026-11-20 12:00:00.750 UTC + 60 s → 12:01:00
    expect(quoteExpiry(new Date("2026-11-20T12:00:00.750Z"), KICKOFF, 60)).toBe(
      BigInt(Date.parse("2026-11-20T12:01:00.000Z") / 1000),
    );
  });

  it("is the last whole second before kickoff when kickoff comes first", () => {
    const now = new Date("2026-11-25T17:59:30.000Z"); // Wed, 30 s before kickoff
    expect(quoteExpiry(now, KICKOFF, 60)).toBe(BigInt(Date.parse("2026-11-25T17:59:59.000Z") / 1000));
    // A kickoff with milliseconds: 18:00:00.250 → 18:00:00 is still before it.
    expect(quoteExpiry(now, new Date("2026-11-25T18:00:00.250Z"), 60)).toBe(
      BigInt(Date.parse("2026-11-25T18:00:00.000Z") / 1000),
    );
  });
});

const MARKETS: StoredMarket[] = [
  {
    key: "1x2",
    outcomes: [
      { key: "home", label: "Home", oddsMilli: 2150 },
      { key: "away", label: "Away", oddsMilli: 3100 },
    ],
  },
];
const quote: StoredQuote = {
  bettor: ALICE,
  signer: SIGNER,
  marketId: MARKET_ID,
  market: "1x2",
  outcome: "home",
  outcomeIndex: 0,
  oddsMilli: 2150n,
  expiresAt: EXPIRES,
};
const log = (over: Partial<PlacedLog> = {}): PlacedLog => ({
  bettor: ALICE,
  signer: SIGNER,
  marketId: MARKET_ID,
  outcomeIndex: 0,
  amount: 10_000_000n,
  odds: 2150n,
  expiry: EXPIRY,
  minedAt: new Date("2026-11-20T12:30:00.000Z"),
  ...over,
});
const judge = (l: PlacedLog, markets = MARKETS, closesAt = KICKOFF) =>
  judgeChainBet({ quote, log: l, event: { closesAt, markets }, spPerUsdc: 100 });

describe("judgeChainBet", () => {
  it("opens a bet placed with its quote, signed by the quote's signer, before expiry and kickoff", () => {
    expect(judge(log())).toEqual({ status: "open" });
    expect(judge(log({ minedAt: EXPIRES }))).toEqual({ status: "open" }); // the expiry second itself
  });

  it.each<[string, Partial<PlacedLog>, string, string]>([
    [
      "another signer",
      { signer: BOB },
      "QUOTE_INVALID",
      "the bet's quote signature is not the service's odds signer's",
    ],
    [
      "a malformed signature",
      { signer: null },
      "QUOTE_INVALID",
      "the bet's quote signature is not the service's odds signer's",
    ],
    ["other odds", { odds: 500_000n }, "QUOTE_INVALID", "the bet differs from the quote it was placed with"],
    ["another bettor", { bettor: BOB }, "QUOTE_INVALID", "the bet differs from the quote it was placed with"],
    [
      "another outcome",
      { outcomeIndex: 1 },
      "QUOTE_INVALID",
      "the bet differs from the quote it was placed with",
    ],
    [
      "another expiry",
      { expiry: EXPIRY + 1n },
      "QUOTE_INVALID",
      "the bet differs from the quote it was placed with",
    ],
    [
      "a block after expiry",
      { minedAt: new Date("2026-11-20T13:00:01.000Z") },
      "QUOTE_EXPIRED",
      "the bet was mined at 2026-11-20T13:00:01.000Z, after its quote expired",
    ],
    [
      "a stake above one million USDC",
      { amount: MAX_STAKE_MICRO + 1n },
      "STAKE_LIMIT",
      "stake 1000000.000001 USDC is outside the 0.000001 to 1000000 USDC a bet counts with",
    ],
    [
      "a zero stake",
      { amount: 0n },
      "STAKE_LIMIT",
      "stake 0.000000 USDC is outside the 0.000001 to 1000000 USDC a bet counts with",
    ],
  ])("rejects %s", (_, over, code, reason) => {
    expect(judge(log(over))).toEqual({ status: "rejected", code, reason });
  });

  it("rejects a bet mined at or after betting closed (a kickoff moved earlier, a result, a status change)", () => {
    const closed = new Date("2026-11-20T12:30:00.000Z"); // Fri, the block's own second
    expect(judge(log(), MARKETS, closed)).toEqual({
      status: "rejected",
      code: "EVENT_CLOSED",
      reason:
        "the bet was mined at 2026-11-20T12:30:00.000Z, once betting on the event had closed at 2026-11-20T12:30:00.000Z",
    });
    // One millisecond later, the block (12:30:00) is before the close.
    expect(judge(log(), MARKETS, new Date("2026-11-20T12:30:00.001Z"))).toEqual({ status: "open" });
  });

  it("rejects a bet on an outcome the event no longer has", () => {
    const without = [{ key: "1x2", outcomes: [MARKETS[0]!.outcomes[1]!] }];
    expect(judge(log(), without)).toEqual({
      status: "rejected",
      code: "OUTCOME_UNAVAILABLE",
      reason: "the event no longer has outcome home in market 1x2",
    });
  });

  it("rejects a bet whose win would earn more than 10^12 SP", () => {
    // 1,000,000 USDC × 100 SP/USDC × 1,000,000 = 10^14 SP
    const huge = { ...quote, oddsMilli: 1_000_000_000n };
    expect(
      judgeChainBet({
        quote: huge,
        log: log({ amount: MAX_STAKE_MICRO, odds: 1_000_000_000n }),
        event: { closesAt: KICKOFF, markets: MARKETS },
        spPerUsdc: 100,
      }),
    ).toEqual({
      status: "rejected",
      code: "STAKE_LIMIT",
      reason: "a win would earn more than the 1000000000000 SP one bet may earn",
    });
  });
});

describe("matchReport", () => {
  const bet = (over: Partial<FoundBet> = {}): FoundBet => ({
    walletLower: ALICE,
    eventId: "e1",
    market: "1x2",
    outcome: "home",
    stakeMicro: 10_000_000n,
    oddsMilli: 2150n,
    ...over,
  });
  const reported = {
    eventId: "e1",
    market: "1x2",
    outcome: "home",
    stakeMicro: 10_000_000n,
    oddsMilli: 2150n,
  };

  it("finds the reporting wallet's bet equal to the report", () => {
    const mine = bet();
    expect(matchReport([bet({ walletLower: BOB }), bet({ stakeMicro: 1n }), mine], reported, ALICE)).toEqual({
      bet: mine,
    });
  });

  it("names the wallet that placed the bet when the reporting one placed none, checksummed", () => {
    expect(matchReport([bet({ walletLower: BOB })], reported, ALICE)).toEqual({
      otherWallet: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF",
    });
  });

  it("lists every difference from the wallet's own bet", () => {
    expect(
      matchReport([bet({ outcome: "away", stakeMicro: 9_500_000n, oddsMilli: 3100n })], reported, ALICE),
    ).toEqual({
      differences: [
        "outcome away on-chain, reported home",
        "stake 9.500000 USDC on-chain, reported 10.000000",
        "odds 3.1 on-chain, reported 2.15",
      ],
    });
    expect(matchReport([bet({ market: "total", outcome: "over" })], reported, ALICE)).toEqual({
      differences: ["the bet is on e1/total, reported e1/1x2"],
    });
  });
});
