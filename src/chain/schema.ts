/** Response schema of GET /api/chain/info. */
import { Type } from "typebox";
import { Nullable } from "../shared/schema-types.js";

const Address = (description: string) =>
  Nullable(Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: `${description} (checksummed)` }));

export const ChainInfoSchema = Type.Object(
  {
    chainId: Nullable(Type.Integer({ description: "the chain of version-2 bets" })),
    bettingContract: Address("the betting contract: approve USDC to it, then call placeBet"),
    usdc: Address("the USDC token bets are staked in"),
    oddsSigner: Address("the address that signs quotes (the contract's oddsSigner)"),
    payoutSigner: Address("the address that signs payout vouchers (the contract's payoutSigner)"),
    quoteTtlSeconds: Type.Integer({ description: "how long a quote lasts (never past kickoff)" }),
    confirmations: Type.Integer({ description: "confirmations before a bet or fee counts" }),
    prizeDistributorAddress: Address("the Champions prize distributor: claim a finalized week's prize there"),
    finality: Type.Union([Type.Literal("finalized"), Type.Literal("confirmations")], {
      description: "finalized: also waits for the node's finalized block where it serves one",
    }),
  },
  { title: "ChainInfo" },
);
