/**
 * The admin / feed commands of the CLI (SPEC §7): the same validation schemas and use cases as the admin API,
 * with the API's response objects as output.
 */

import { encodeFunctionData, erc20Abi, getAddress } from "viem";
import { prizeDistributorAbi } from "../../contracts/abi.js";
import { EventResultBody, ProtocolFeeBody, SpTransactionBody } from "../admin/schema.js";
import { finalizeWeek } from "../competition/finalize-week.js";
import { getPrizeTree } from "../competition/get-prize-tree.js";
import { presentFinalize } from "../competition/presenters.js";
import { FinalizeQuery } from "../competition/schema.js";
import { presentEvent } from "../events/presenters.js";
import { EventIdParams, EventUpsertBody } from "../events/schema.js";
import { upsertEvent } from "../events/upsert-event.js";
import { presentFee } from "../fees/presenters.js";
import { recordProtocolFee } from "../fees/record-fee.js";
import { presentSpRow } from "../ledger/presenters.js";
import { recordSpTransaction } from "../ledger/record-sp-transaction.js";
import { settleEvent } from "../predictions/settle-event.js";
import { formatUsdc } from "../shared/money.js";
import { type CliContext, competitionDeps, seasonOf } from "./cli-context.js";
import { assertValid } from "./validate.js";

/** `event-upsert`: creates or updates one event (body as PUT /api/admin/events/:id). */
export async function eventUpsertCommand(ctx: CliContext, input: { id: string; body: unknown }) {
  const { id } = assertValid(EventIdParams, { id: input.id }, "");
  const body = assertValid(EventUpsertBody, input.body, "event");
  const { event, created } = await upsertEvent(
    { db: ctx.database.db, clock: ctx.clock, season: seasonOf(ctx.config) },
    id,
    body,
  );
  return { created, event: presentEvent(event) };
}

/**
 * `event-result`: settles an event (body as POST /api/admin/events/:id/result); the same result again changes
 * nothing, a different one after settlement is CONFLICT.
 */
export async function eventResultCommand(ctx: CliContext, input: { id: string; body: unknown }) {
  const { id } = assertValid(EventIdParams, { id: input.id }, "");
  const result = assertValid(EventResultBody, input.body, "");
  const { event, settled, alreadySettled } = await settleEvent(
    { db: ctx.database.db, clock: ctx.clock, season: seasonOf(ctx.config), spPerUsdc: ctx.config.spPerUsdc },
    { eventId: id, result },
  );
  return { event: presentEvent(event), settled, alreadySettled };
}

/** `sp-transaction`: one SP ledger row (body as POST /api/admin/sp-transactions); a replay returns the first. */
export async function spTransactionCommand(ctx: CliContext, input: unknown) {
  const body = assertValid(SpTransactionBody, input, "");
  const { row, created } = await recordSpTransaction(
    { db: ctx.database.db, season: seasonOf(ctx.config), welcomeCredits: ctx.config.welcomeCredits },
    body,
  );
  return { created, row: presentSpRow(row) };
}

/** `protocol-fee`: one fee record (body as POST /api/admin/protocol-fees). */
export async function protocolFeeCommand(ctx: CliContext, input: unknown) {
  const body = assertValid(ProtocolFeeBody, input, "");
  const { fee, created } = await recordProtocolFee(ctx.database.db, body);
  return { created, fee: presentFee(fee) };
}

/** `finalize`: finalizes week W (as POST /api/competition/finalize?week=W; the CLI needs no secret). */
export async function finalizeCommand(ctx: CliContext, input: { week: number }) {
  const { week } = assertValid(FinalizeQuery, input, "");
  return presentFinalize(await finalizeWeek(competitionDeps(ctx), { week }));
}

/**
 * `prize-root`: what the operator needs to pay finalized week W's prizes (docs/onchain.md): the root, the total to
 * fund the distributor with, and the calldata of `setRoot(W, root)` and of the USDC `transfer(distributor, total)`,
 * for the operator to send from the owner's wallet. The service holds no key and sends nothing.
 */
export async function prizeRootCommand(ctx: CliContext, input: { week: number }) {
  const { week } = assertValid(FinalizeQuery, input, "");
  const { tree } = await getPrizeTree(competitionDeps(ctx), { week });
  const contract = ctx.config.prizeDistributor?.contract ?? null;
  const distributor = contract ? getAddress(contract) : null;
  return {
    week,
    root: tree.root,
    leaves: tree.leaves.length,
    totalMicro: String(tree.totalMicro),
    totalUsdc: formatUsdc(tree.totalMicro),
    awaitingWallet: tree.awaitingWallet.map((a) => ({
      userId: a.userId,
      amountUsdc: formatUsdc(a.amountMicro),
    })),
    distributor,
    // No leaf, no root: nothing to publish or fund.
    setRoot: tree.root
      ? {
          to: distributor,
          data: encodeFunctionData({
            abi: prizeDistributorAbi,
            functionName: "setRoot",
            args: [BigInt(week), tree.root],
          }),
        }
      : null,
    fund:
      tree.root && distributor
        ? {
            token: "USDC",
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: "transfer",
              args: [distributor, tree.totalMicro],
            }),
          }
        : null,
  };
}
