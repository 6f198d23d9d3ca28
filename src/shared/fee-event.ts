/**
 * The fee event the indexer reads, as configured: a human-readable Solidity event signature, the name of its
 * amount argument and the fee token's decimals (FEE_EVENT_SIGNATURE, FEE_EVENT_AMOUNT_ARG, FEE_TOKEN_DECIMALS).
 *
 * Contract:
 * - `parseFeeEvent` accepts an event (not anonymous: viem's parser has no such keyword, so its first topic is the
 *   signature's hash, which the indexer filters on) whose amount argument is an unsigned integer, indexed or not;
 *   otherwise it answers why not, in one line, naming the variable.
 * - `toMicroUsdc` converts an amount in token units to micro-USDC (6 decimals): exact when the token has 6
 *   decimals or fewer, floored (dust below a micro-USDC dropped) when it has more.
 * - Pure: no I/O.
 */
import { type AbiEvent, encodeEventTopics, type Hex, parseAbiItem } from "viem";

/** Today's fee event of contracts/SpBetting.sol: the default. */
export const DEFAULT_FEE_EVENT = "event FeeCollected(uint256 amount)";

export interface FeeEvent {
  /** The signature as configured. */
  signature: string;
  abi: AbiEvent;
  /** keccak256 of the canonical signature: the log's first topic. */
  topic0: Hex;
  amountArg: string;
  decimals: number;
}

export function parseFeeEvent(
  signature: string,
  amountArg: string,
  decimals: number,
): FeeEvent | { variable: string; problem: string } {
  const refuse = (variable: string, problem: string) => ({ variable, problem });
  let item: ReturnType<typeof parseAbiItem>;
  try {
    item = parseAbiItem(signature);
  } catch (err) {
    const first = ((err as Error).message.split("\n")[0] ?? "").trim();
    return refuse("FEE_EVENT_SIGNATURE", `is not a Solidity event signature (${first})`);
  }
  if (item.type !== "event") {
    return refuse("FEE_EVENT_SIGNATURE", `must declare an event, like "${DEFAULT_FEE_EVENT}"`);
  }
  const arg = item.inputs.find((i) => i.name === amountArg);
  if (!arg) {
    const names = item.inputs.map((i) => i.name).filter(Boolean);
    return refuse("FEE_EVENT_AMOUNT_ARG", `must name an argument of ${item.name} (${names.join(", ")})`);
  }
  // parseAbiItem has already checked the type's width.
  if (!/^uint\d*$/.test(arg.type)) {
    return refuse(
      "FEE_EVENT_AMOUNT_ARG",
      `must be an unsigned integer argument, ${amountArg} is ${arg.type}`,
    );
  }
  const topic0 = encodeEventTopics({ abi: [item], eventName: item.name } as never)[0] as Hex;
  return { signature, abi: item, topic0, amountArg, decimals };
}

/** A fee amount in token units (`decimals`) as micro-USDC; floored below a micro-unit. */
export function toMicroUsdc(amount: bigint, decimals: number): bigint {
  return decimals >= 6 ? amount / 10n ** BigInt(decimals - 6) : amount * 10n ** BigInt(6 - decimals);
}
