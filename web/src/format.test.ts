import { describe, expect, it } from "vitest";
import {
  exactUsdc,
  formatDuration,
  formatLocal,
  formatUsdc,
  formatUtc,
  microToUsdc,
  ordinal,
  parseUsdcInput,
} from "./format";

describe("formatUsdc: the API's 6-decimal strings as money, cents truncated", () => {
  it.each([
    ["68.200000", "$68.20"],
    ["2600.500000", "$2,600.50"],
    ["0.000000", "$0.00"],
    ["385.000000", "$385.00"],
    ["33.333333", "$33.33"],
    ["0.019999", "$0.01"], // truncated, never rounded up to $0.02
    ["0.004000", "<$0.01"],
    ["1234567.890000", "$1,234,567.89"],
    ["9223372036854.775807", "$9,223,372,036,854.77"], // beyond 2^53: digits, never a float
    ["12", "$12.00"],
  ])("%s → %s", (amount, shown) => {
    expect(formatUsdc(amount)).toBe(shown);
  });

  it("leaves a malformed amount as it is", () => {
    expect(formatUsdc("12.5 USDC")).toBe("12.5 USDC");
  });

  it("keeps the exact amount for the tooltip", () => {
    expect(exactUsdc("2600.500000")).toBe("2,600.500000 USDC");
    expect(exactUsdc("0.004")).toBe("0.004000 USDC");
  });
});

describe("micro-USDC and typed stakes", () => {
  it("formats micro-USDC as the API's string", () => {
    expect(microToUsdc(2_600_500_000n)).toBe("2600.500000");
    expect(microToUsdc(1n)).toBe("0.000001");
    expect(microToUsdc(0n)).toBe("0.000000");
  });

  it.each([
    ["10", 10_000_000n],
    ["12.5", 12_500_000n],
    ["0.000001", 1n],
    [" 3. ", 3_000_000n],
    ["0.0000001", null], // 7 decimals
    ["-1", null],
    ["1e3", null],
    ["", null],
  ])("parses %j as %s micro-USDC", (raw, micro) => {
    expect(parseUsdcInput(raw)).toBe(micro);
  });
});

describe("times and counts", () => {
  it("writes an instant in the player's zone with the zone named", () => {
    expect(formatLocal("2026-11-21T15:00:00.000Z", "Europe/Berlin")).toBe("Sat, Nov 21, 16:00 GMT+1");
    expect(formatLocal("2026-11-21T15:00:00.000Z", "Asia/Tokyo")).toBe("Sun, Nov 22, 00:00 GMT+9");
    expect(formatLocal("2026-11-21T15:00:00.000Z", "America/New_York")).toBe("Sat, Nov 21, 10:00 EST");
    expect(formatLocal("2026-11-21T15:00:00.000Z", "UTC")).toBe("Sat, Nov 21, 15:00 UTC");
  });

  it("writes an instant in UTC for the tooltip", () => {
    expect(formatUtc("2026-11-25T18:00:00.000Z")).toBe("Wed, Nov 25, 2026, 18:00 UTC");
  });

  it("formats a countdown", () => {
    expect(formatDuration(3 * 86_400 + 4 * 3600 + 5 * 60 + 6)).toBe("3d 04h 05m 06s");
    expect(formatDuration(59)).toBe("00h 00m 59s");
  });

  it.each([
    [1, "1st"],
    [2, "2nd"],
    [3, "3rd"],
    [4, "4th"],
    [11, "11th"],
    [12, "12th"],
    [13, "13th"],
    [21, "21st"],
    [22, "22nd"],
    [101, "101st"],
    [111, "111th"],
  ])("ordinal(%i) = %s", (n, s) => {
    expect(ordinal(n)).toBe(s);
  });
});
