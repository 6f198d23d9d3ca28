import { describe, expect, it } from "vitest";
import { DEFAULT_FEE_EVENT, parseFeeEvent, toMicroUsdc } from "./fee-event.js";

describe("toMicroUsdc", () => {
  it("keeps 6-decimal amounts, scales fewer decimals up and floors more decimals down", () => {
    expect(toMicroUsdc(1_500_000n, 6)).toBe(1_500_000n);
    expect(toMicroUsdc(15n, 1)).toBe(1_500_000n); // 1.5 with 1 decimal
    expect(toMicroUsdc(3n, 0)).toBe(3_000_000n);
    expect(toMicroUsdc(1_500_000_000_000_000_000n, 18)).toBe(1_500_000n); // 1.5 DAI-style
    expect(toMicroUsdc(999_999_999_999n, 18)).toBe(0n); // below a micro-USDC
    expect(toMicroUsdc(1_000_000_999_999n, 18)).toBe(1n);
  });
});

describe("parseFeeEvent", () => {
  it("reads the default event and the topic it is found by", () => {
    const e = parseFeeEvent(DEFAULT_FEE_EVENT, "amount", 6);
    expect(e).toMatchObject({
      signature: DEFAULT_FEE_EVENT,
      amountArg: "amount",
      decimals: 6,
      // keccak256("FeeCollected(uint256)")
      topic0: "0xc472cb3a7a659a876494d66b3063145f279701771d6150b9329c31611ed6405c",
    });
  });

  it("accepts an indexed amount of any unsigned width", () => {
    expect(parseFeeEvent("event Fee(address indexed who, uint96 indexed paid)", "paid", 6)).toMatchObject({
      amountArg: "paid",
    });
  });
});
