/** Request and response schemas of the demo routes. */
import { Type } from "typebox";

export const FaucetBody = Type.Object(
  { address: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "the wallet to fund, any case" }) },
  { additionalProperties: false },
);

export const FaucetResponse = Type.Object({
  address: Type.String({ description: "checksummed" }),
  usdc: Type.String({ description: "test USDC sent (6 decimals); 0 when the address already held the cap" }),
  gasWei: Type.String({ description: "native coin sent, in wei; 0 when the address already held the cap" }),
  transactions: Type.Array(Type.String()),
});
