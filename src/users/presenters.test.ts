import fc from "fast-check";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { checksumWallet, walletDisplayName } from "./presenters.js";

describe("checksumWallet", () => {
  it("gives the EIP-55 form of the standard's own examples", () => {
    // EIP-55's test vectors (all caps, all lower, mixed), given here in lower case.
    for (const address of [
      "0x52908400098527886E0F7030069857D2E4169EE7",
      "0xde709f2102306220921060314715629080e2fb77",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]) {
      expect(checksumWallet(address.toLowerCase())).toBe(address);
    }
  });

  it("agrees with viem's getAddress on any lower-case address", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const lower = `0x${Buffer.from(bytes).toString("hex")}`;
        expect(checksumWallet(lower)).toBe(getAddress(lower));
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves null alone, refuses what is not an address, and checksums mixed case", () => {
    expect(checksumWallet(null)).toBeNull();
    expect(() => checksumWallet("0x1234")).toThrow();
    expect(() => checksumWallet(`0x${"g".repeat(40)}`)).toThrow();
    // Mixed case goes to getAddress, as before: the checksummed form, whatever case came in.
    expect(checksumWallet("0x52908400098527886E0F7030069857D2E4169Ee7")).toBe(
      "0x52908400098527886E0F7030069857D2E4169EE7",
    );
  });

  it("names a wallet user by the checksummed ends of the wallet", () => {
    expect(walletDisplayName("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")).toBe("0x5aAe…eAed");
  });
});
