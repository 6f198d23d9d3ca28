/**
 * Version-2 bets as the chain holds them: the bet indexer (and a `bet-placed-v2` report, which reads the
 * transaction's receipt) record each BetPlaced log as the bettor's prediction; a reorganisation orphans them.
 * All three use cases run in the caller's transaction.
 *
 * Contract:
 * - `recordChainBets`: one live prediction per log, keyed by (chain id, tx hash, log index) in the database, owned
 *   by the user of the log's bettor wallet (found, or created with welcome credits), on the event, market and
 *   outcome of the quote the bet was placed with, at the log's odds and stake. A log whose quote this service never
 *   issued, or whose stake or odds do not fit in 64 bits, is not recorded (it is logged: no event to attach it to,
 *   no amount to store). A log read again from another block moves its prediction there. A pending prediction is
 *   judged once its log is read from a final block (`final`): opened (and settled at once when its event already
 *   has a result) or rejected with the reason (onchain-bet-rules.ts). Returns the live predictions of the logs,
 *   each with its bettor's wallet.
 * - `orphanUnseenChainBets`: after the indexer read blocks [from, to], orphans the contract's live predictions
 *   recorded from those blocks whose log it did not find there (a report read them from a block since replaced).
 * - `orphanChainBetsAbove`: after a reorganisation past block `after`, orphans the contract's live, no longer
 *   pending predictions read from blocks above it. Pending ones stay for the indexer to find or orphan.
 * - Orphaning rejects the prediction (reason naming the block), drops its payout, frees its log's key (the bet is
 *   recorded afresh if the log comes back) and reverses the SP it earned with a compensating ledger row of the same
 *   type and event, so the ladders and ranks of its week follow. A finalized week's snapshot does not change.
 */
import type { Tx } from "../db/client.js";
import { bettingClosesAt } from "../events/betting-window.js";
import { type EventRow, lockEventsForBets, type StoredMarket } from "../events/events.js";
import { reverseSpEntry } from "../ledger/ledger.js";
import { ensureWalletUser } from "../ledger/register-user.js";
import { judgeChainBet, type PlacedLog } from "./onchain-bet-rules.js";
import { paidAt } from "./payouts.repository.js";
import {
  findChainBet,
  findPrediction,
  findQuote,
  insertPrediction,
  lockChainBetsInBlocks,
  markClaimed,
  markOrphaned,
  moveChainBet,
  type PredictionRow,
  type QuoteRow,
  resolvePending,
} from "./predictions.repository.js";
import { type SettleDeps, settlePrediction } from "./settle-event.js";
import type { EventResult } from "./settlement.js";

/** A decoded BetPlaced log: addresses and hashes lower-case. */
export interface ChainBetLog extends PlacedLog {
  chainId: number;
  contract: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  /** EIP-712 digest of the quote fields the log carries. */
  digest: string;
}

export interface ChainBetsDeps extends SettleDeps {
  welcomeCredits: number;
  log?: { warn(details: object, message: string): void };
}

const INT64_MAX = 2n ** 63n - 1n;

export async function recordChainBets(
  tx: Tx,
  deps: ChainBetsDeps,
  logs: readonly ChainBetLog[],
  opts: { final: boolean },
): Promise<{ created: number; bets: Array<{ prediction: PredictionRow; bettor: string }> }> {
  let created = 0;
  const recorded: Array<{ prediction: PredictionRow; bettor: string }> = [];
  const quotes = new Map<string, QuoteRow | null>();
  for (const log of logs)
    if (!quotes.has(log.digest)) quotes.set(log.digest, await findQuote(tx, log.digest));
  // Judging opens bets: first the bet locks of their events, shared, as a bet placed through the API takes them, so
  // a settlement running now is waited for and its result seen (the bet is then settled here), or it waits for
  // this transaction and finds the bets open. All in one sorted statement before anything is written: the
  // settlement takes its lock before its rows too, so neither can hold what the other waits for.
  const events = opts.final
    ? await lockEventsForBets(
        tx,
        [...quotes.values()].flatMap((q) => (q ? [q.eventId] : [])),
      )
    : null;
  for (const log of logs) {
    const where = { txHash: log.txHash, logIndex: log.logIndex, blockNumber: String(log.blockNumber) };
    if (log.amount > INT64_MAX || log.odds > INT64_MAX) {
      deps.log?.warn(where, "BetPlaced log with a stake or odds beyond 64 bits not recorded");
      continue;
    }
    const quote = quotes.get(log.digest);
    if (!quote) {
      deps.log?.warn(where, "BetPlaced log placed with no quote of this service not recorded");
      continue;
    }
    let row = await findChainBet(tx, log);
    if (!row) {
      row = await insertChainBet(tx, deps, log, quote);
      if (row) {
        created++;
        // The bet again after a reorganisation, and its payout already made: it is paid, never twice.
        const paid = await paidAt(tx, log.contract, log.digest);
        if (paid) await markClaimed(tx, row.id, paid);
      } else row = (await findChainBet(tx, log))!; // recorded concurrently (the indexer and a report)
    } else if (row.blockHash !== log.blockHash) {
      row = await moveChainBet(tx, row.id, { blockNumber: log.blockNumber, blockHash: log.blockHash });
    }
    if (events && row.status === "pending")
      row = await judge(tx, deps, row, quote, log, events.get(quote.eventId)!);
    recorded.push({ prediction: row, bettor: log.bettor });
  }
  return { created, bets: recorded };
}

async function insertChainBet(
  tx: Tx,
  deps: ChainBetsDeps,
  log: ChainBetLog,
  quote: QuoteRow,
): Promise<PredictionRow | null> {
  const { user } = await ensureWalletUser(tx, {
    walletLower: log.bettor,
    welcomeCredits: deps.welcomeCredits,
  });
  return insertPrediction(tx, {
    userId: user.id,
    version: 2,
    eventId: quote.eventId,
    market: quote.market,
    outcome: quote.outcome,
    oddsMilli: log.odds,
    stakeMicro: log.amount,
    status: "pending",
    placedAt: log.minedAt,
    txHash: log.txHash,
    chainId: log.chainId,
    logIndex: log.logIndex,
    contract: log.contract,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    quoteDigest: log.digest,
  });
}

/** Opens or rejects a pending chain bet read from a final block; settles it when its event has a result. */
async function judge(
  tx: Tx,
  deps: ChainBetsDeps,
  row: PredictionRow,
  quote: QuoteRow,
  log: ChainBetLog,
  /** The bet's event, read once its bet lock was held (recordChainBets). */
  event: EventRow,
): Promise<PredictionRow> {
  const verdict = judgeChainBet({
    quote,
    log,
    event: { closesAt: bettingClosesAt(event), markets: event.markets as StoredMarket[] },
    spPerUsdc: deps.spPerUsdc,
  });
  const resolved = await resolvePending(tx, row.id, verdict);
  if (resolved?.status === "open" && event.result) {
    await settlePrediction(tx, deps, resolved, event, event.result as EventResult, deps.clock.now());
  }
  return (await findPrediction(tx, row.id))!;
}

export async function orphanUnseenChainBets(
  tx: Tx,
  deps: ChainBetsDeps,
  where: { chainId: number; contract: string; from: bigint; to: bigint; seen: readonly ChainBetLog[] },
): Promise<number> {
  const seen = new Set(where.seen.map((l) => `${l.txHash}:${l.logIndex}`));
  const rows = await lockChainBetsInBlocks(tx, { ...where, to: where.to });
  const gone = rows.filter((r) => !seen.has(`${r.txHash}:${r.logIndex}`));
  for (const r of gone) {
    await orphan(
      tx,
      deps,
      r,
      `block ${r.blockNumber} holding the bet left the canonical chain (reorganisation)`,
    );
  }
  return gone.length;
}

export async function orphanChainBetsAbove(
  tx: Tx,
  deps: ChainBetsDeps,
  where: { chainId: number; contract: string; after: bigint },
): Promise<number> {
  const rows = await lockChainBetsInBlocks(tx, {
    chainId: where.chainId,
    contract: where.contract,
    from: where.after + 1n,
    to: null,
    settledOnly: true,
  });
  for (const r of rows) {
    await orphan(
      tx,
      deps,
      r,
      `block ${r.blockNumber} holding the bet left the canonical chain (reorganisation below block ${where.after + 1n})`,
    );
  }
  return rows.length;
}

async function orphan(tx: Tx, deps: ChainBetsDeps, row: PredictionRow, reason: string): Promise<void> {
  if (!(await markOrphaned(tx, row.id, reason, deps.clock.now()))) return;
  await reverseSpEntry(tx, deps.season, `prediction:${row.id}`);
}
