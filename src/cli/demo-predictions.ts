/**
 * Plays the demo season's timeline (`demo.actions`) through the player use cases, each under a clock pinned to
 * the action's instant: daily credits (`claimDailyCredits`), version-1 bets (`placeBet`, the pick key as
 * idempotency key, the pick's odds as expected odds), version-2 bets (`reportOnchainBet` with the trust
 * verifier and a fake transaction hash derived from the seed), results (`settleEvent`, which settles the bets
 * and writes their SP) and payout claims (`claimPayout`).
 *
 * The events must already be stored and open (`scheduled`) unless settled, and the players signed up
 * (`signUpDemoPlayers`). Bets on upcoming events stay open.
 *
 * Idempotent: a bet replays by its idempotency key (v1) or transaction hash (v2), a result already posted
 * changes nothing, and a second claim of a payout or of a day's credits answers ALREADY_CLAIMED, counted as
 * such. A bet on an event that was settled without it (a database seeded before predictions existed) answers
 * EVENT_CLOSED and is counted, not placed. Actions run in short transactions (cli-context.ts inShortTransactions).
 */
import { keccak256, toHex } from "viem";
import { AdjustableClock, type Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { AppError, type ErrorCode } from "../errors.js";
import { trustVerifier } from "../predictions/chain-verifier.js";
import { claimPayout } from "../predictions/claim-payout.js";
import { type BetResult, placeBet } from "../predictions/place-bet.js";
import { reportOnchainBet } from "../predictions/report-onchain-bet.js";
import { settleEvent } from "../predictions/settle-event.js";
import { claimDailyCredits } from "../rewards/daily-credits.js";
import type { UserRow } from "../users/users.js";
import { type CliContext, inShortTransactions, seasonOf } from "./cli-context.js";
import type { DemoAction, DemoPick, DemoSeason } from "./demo-data.js";
import type { DemoUsers } from "./demo-players.js";

interface Tally {
  total: number;
  created: number;
}

export interface DemoPredictionsResult {
  dailyCredits: Tally & { alreadyClaimed: number };
  /** Version-1 (credits) and version-2 (USDC, reported) bets. */
  bets: {
    credits: Tally & { replayed: number };
    onchain: Tally & { replayed: number };
    /** Not placed: the event was settled without them. */
    closed: number;
    /** Not placed: the balance did not cover the stake (the demo data leaves such picks out). */
    insufficientCredits: number;
    /** Bets (placed or replayed) on events without a result yet. */
    leftOpen: number;
  };
  results: { total: number; settled: number; alreadySettled: number; predictionsSettled: number };
  payouts: Tally & { alreadyClaimed: number; withoutBet: number };
}

/** The fake transaction hash of a reported version-2 demo bet. */
export function demoTxHash(seed: string, pick: DemoPick): `0x${string}` {
  return keccak256(toHex(`sp-demo|${seed}|bet|${pick.key}`));
}

/** Runs `work`; an AppError with one of `codes` is returned as its code instead of thrown. */
async function unless<T, C extends ErrorCode>(codes: readonly C[], work: () => Promise<T>): Promise<T | C> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError && (codes as readonly ErrorCode[]).includes(err.code)) return err.code as C;
    throw err;
  }
}

/**
 * Places one pick as the player would: a version-1 bet, or the report of a version-2 bet. The demo's
 * transactions exist on no chain, so the trust verifier confirms them whatever CHAIN_VERIFIER says.
 */
async function placeDemoBet(
  deps: { db: Db; clock: Clock; config: Config; seed: string },
  pick: DemoPick,
  user: UserRow,
): Promise<BetResult["prediction"]> {
  const { db, clock, config } = deps;
  const bet = { userId: user.id, eventId: pick.eventId, market: pick.market, outcome: pick.outcome };
  if (pick.stake.kind === "credits") {
    const placed = await placeBet(
      { db, clock },
      { ...bet, stake: pick.stake.credits, expectedOdds: pick.odds, idempotencyKey: pick.key },
    );
    return placed.prediction;
  }
  const chainId = config.siweChainIds[0]!;
  const onchainDeps = {
    db,
    clock,
    season: seasonOf(config),
    spPerUsdc: config.spPerUsdc,
    welcomeCredits: config.welcomeCredits,
    verifier: trustVerifier,
    chain: null,
    payouts: null,
    acceptedChainIds: [chainId],
  };
  return reportOnchainBet(onchainDeps, {
    ...bet,
    walletLower: user.wallet,
    stakeUsdc: String(pick.stake.usdc),
    odds: pick.odds,
    txHash: demoTxHash(deps.seed, pick),
    chainId,
    idempotencyKey: pick.key,
  });
}

export async function placeDemoPredictions(
  ctx: CliContext,
  demo: DemoSeason,
  seed: string,
  users: DemoUsers,
): Promise<DemoPredictionsResult> {
  const out: DemoPredictionsResult = {
    dailyCredits: { total: 0, created: 0, alreadyClaimed: 0 },
    bets: {
      credits: { total: 0, created: 0, replayed: 0 },
      onchain: { total: 0, created: 0, replayed: 0 },
      closed: 0,
      insufficientCredits: 0,
      leftOpen: 0,
    },
    results: { total: 0, settled: 0, alreadySettled: 0, predictionsSettled: 0 },
    payouts: { total: 0, created: 0, alreadyClaimed: 0, withoutBet: 0 },
  };
  const { config } = ctx;
  const clock = new AdjustableClock();
  const season = seasonOf(config);
  /** Prediction id of every pick placed (now or by an earlier run), by pick key. */
  const placed = new Map(users.existingBets);
  const userOf = (player: number) => users.byPlayer.get(player)!;
  const decided = new Set(demo.events.filter((e) => e.result !== null).map((e) => e.id));

  const run = async (db: Db, action: DemoAction): Promise<void> => {
    clock.set(new Date(action.at));
    switch (action.kind) {
      case "daily-credits": {
        out.dailyCredits.total++;
        const deps = { db, clock, amount: config.dailyCredits };
        const r = await unless(["ALREADY_CLAIMED"], () => claimDailyCredits(deps, userOf(action.player).id));
        if (r === "ALREADY_CLAIMED") out.dailyCredits.alreadyClaimed++;
        else out.dailyCredits.created++;
        return;
      }
      case "bet": {
        const { pick } = action;
        const user = userOf(pick.player);
        const existed = placed.has(pick.key);
        const tally = pick.stake.kind === "credits" ? out.bets.credits : out.bets.onchain;
        tally.total++;
        const r = await unless(["EVENT_CLOSED", "INSUFFICIENT_CREDITS"], () =>
          placeDemoBet({ db, clock, config, seed }, pick, user),
        );
        if (r === "EVENT_CLOSED") out.bets.closed++;
        else if (r === "INSUFFICIENT_CREDITS") out.bets.insufficientCredits++;
        else {
          placed.set(pick.key, r.id);
          if (existed) tally.replayed++;
          else tally.created++;
          if (!decided.has(pick.eventId)) out.bets.leftOpen++;
        }
        return;
      }
      case "result": {
        out.results.total++;
        const deps = { db, clock, season, spPerUsdc: config.spPerUsdc };
        const r = await settleEvent(deps, { eventId: action.eventId, result: action.result });
        if (r.alreadySettled) out.results.alreadySettled++;
        else out.results.settled++;
        out.results.predictionsSettled += r.settled;
        return;
      }
      case "claim": {
        out.payouts.total++;
        const predictionId = placed.get(action.pick.key);
        if (predictionId === undefined) {
          out.payouts.withoutBet++;
          return;
        }
        const userId = userOf(action.pick.player).id;
        const r = await unless(["ALREADY_CLAIMED"], () =>
          claimPayout({ db, clock, payouts: null }, { userId, predictionId }),
        );
        if (r === "ALREADY_CLAIMED") out.payouts.alreadyClaimed++;
        else out.payouts.created++;
        return;
      }
    }
  };

  await inShortTransactions(ctx.database.db, demo.actions, run);
  return out;
}
