import { describe, expect, it } from "vitest";
import { type ExpectedBet, matchPlacedBet, type PlacedBet } from "./bet-match.js";

const ALICE = "0x7e5f4552091a69125d5dfcb7b8c2659029395bdf";
const BOB = "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf";
const CONTRACT = "0x2946259e0334f33a064106302415ad3391bed384";
const EVENT = `0x${"11".repeat(32)}` as const;
const OTHER_EVENT = `0x${"22".repeat(32)}` as const;

const expected: ExpectedBet = {
  contract: CONTRACT,
  bettorLower: ALICE,
  event: "e1",
  market: "1x2",
  outcomeKey: "home",
  eventId: EVENT,
  outcome: 0,
  amount: 10_000_000n,
  odds: 2150n,
};
const bet = (over: Partial<PlacedBet> = {}): PlacedBet => ({
  logIndex: 1,
  bettor: ALICE,
  eventId: EVENT,
  outcome: 0,
  amount: 10_000_000n,
  odds: 2150n,
  ...over,
});

describe("matchPlacedBet", () => {
  it("confirms with the first log equal to the report, bettor compared case-insensitively", () => {
    const logs = [
      bet({ logIndex: 1, amount: 1n }),
      bet({ logIndex: 3, bettor: ALICE.toUpperCase().replace("0X", "0x") }),
    ];
    expect(matchPlacedBet(logs, expected)).toEqual({ logIndex: 3 });
    expect(matchPlacedBet([bet({ logIndex: 4 }), bet({ logIndex: 5 })], expected)).toEqual({ logIndex: 4 });
  });

  it("names the missing event when the transaction has no bet of the contract", () => {
    expect(matchPlacedBet([], expected)).toEqual({
      reason:
        "the transaction has no BetPlaced event of the betting contract 0x2946259E0334f33A064106302415aD3391BeD384",
    });
  });

  it("names the wallet that placed the bet when it is not the reporting one", () => {
    expect(matchPlacedBet([bet({ bettor: BOB })], expected)).toEqual({
      reason:
        "the bet was placed by 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF, not by the signed-in wallet 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf",
    });
  });

  it("lists every difference of the reporting wallet's bet", () => {
    const logs = [
      bet({ bettor: BOB }),
      bet({ eventId: OTHER_EVENT, outcome: 2, amount: 9_500_000n, odds: 2100n }),
    ];
    expect(matchPlacedBet(logs, expected)).toEqual({
      reason:
        "the bet is on another event or market than e1/1x2; outcome index 2 on-chain, but home is index 0; " +
        "stake 9.500000 USDC on-chain, reported 10.000000; odds 2.1 on-chain, reported 2.15",
    });
  });
});
