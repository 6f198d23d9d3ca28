/**
 * ──────────────────────────────────────────────────────────────────────────────────────────────────────────
 * PLUG-IN POINT: demo predictions through the player use cases (src/predictions/).
 * ──────────────────────────────────────────────────────────────────────────────────────────────────────────
 *
 * Today this returns null, and `seed-demo` writes the SP of every won credit pick straight to the ledger
 * (PREDICTION / WARMUP_PREDICTION rows, externalId `sp:<pick key>`), which is what the ladders read.
 *
 * `seed-demo` calls it after upserting the events and before posting their results. To implement it, return
 * the counts instead of null:
 * 1. For every credit pick of `demo.picks` (`stake.kind === "credits"`), place a version-1 prediction
 *    (`placeBet` of src/predictions/place-bet.ts) for the pick's wallet user (created with welcome credits by
 *    `ensureWalletUser`), on `eventId` / `market` / `outcome` with `expectedOdds: odds` and the pick's `key` as
 *    idempotency key (re-seeding then places nothing twice), under a clock pinned before `kickoffAt`.
 *    `assertEventOpen` also wants the event `scheduled`: on a fresh database upsert not-yet-stored events as
 *    scheduled first; a settled event cannot change status any more (upsert-event answers CONFLICT).
 * 2. Return `{placed}`; `seed-demo` then posts every `demo.events[i].result` with
 *    `settleEvent` (as now), which settles those predictions and writes their SP, and it skips its direct
 *    PREDICTION / WARMUP_PREDICTION rows. USDC picks stay ONCHAIN_SP rows (the chain feed); referrals stay.
 * Stakes are sized for WELCOME_CREDITS + DAILY_CREDITS, but a whale's week can exceed its balance: skip
 * INSUFFICIENT_CREDITS picks (or claim daily credits first) rather than fail the seed.
 * Caveat: a database seeded before this lands already holds the direct rows; re-seed into a fresh DATA_DIR.
 */
import type { CliContext } from "./cli-context.js";
import type { DemoSeason } from "./demo-data.js";

export interface DemoPredictionsResult {
  placed: number;
}

export async function placeDemoPredictions(
  _ctx: CliContext,
  _demo: DemoSeason,
): Promise<DemoPredictionsResult | null> {
  return null;
}
