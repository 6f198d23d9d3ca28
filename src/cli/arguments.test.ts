import { describe, expect, it } from "vitest";
import { ConfigError } from "../config.js";
import { AppError } from "../errors.js";
import { parseCommandLine, pickField, takePrintOption, UsageError } from "./arguments.js";
import { errorLine, toJson } from "./output.js";

describe("parseCommandLine", () => {
  it("reads each command's options", () => {
    expect(parseCommandLine([])).toEqual({ command: "help" });
    expect(parseCommandLine(["backup", "b.dump"])).toEqual({ command: "backup", file: "b.dump" });
    expect(parseCommandLine(["restore", "b.dump"])).toEqual({
      command: "restore",
      file: "b.dump",
      overwrite: false,
    });
    expect(parseCommandLine(["restore", "--overwrite", "b.dump"])).toEqual({
      command: "restore",
      file: "b.dump",
      overwrite: true,
    });
    expect(() => parseCommandLine(["restore"])).toThrow(UsageError);
    expect(() => parseCommandLine(["backup", "a", "b"])).toThrow(UsageError);
    expect(parseCommandLine(["event-upsert", "--id", "e1", "--file", "e.json"])).toEqual({
      command: "event-upsert",
      id: "e1",
      file: "e.json",
    });
    expect(
      parseCommandLine([
        "sp-transaction",
        "--user-id",
        "7",
        "--type",
        "ADJUSTMENT",
        "--amount=-5",
        "--external-id",
        "x",
      ]),
    ).toEqual({
      command: "sp-transaction",
      input: { userId: "7", type: "ADJUSTMENT", amount: -5, externalId: "x" },
    });
    expect(
      parseCommandLine([
        "protocol-fee",
        "--tx-hash",
        "0xab",
        "--log-index",
        "3",
        "--amount-usdc",
        "12.5",
        "--occurred-at",
        "2026-11-03T10:00:00Z",
      ]),
    ).toEqual({
      command: "protocol-fee",
      input: { txHash: "0xab", logIndex: 3, amountUsdc: "12.5", occurredAt: "2026-11-03T10:00:00Z" },
    });
    expect(parseCommandLine(["finalize", "--week", "2"])).toEqual({ command: "finalize", week: 2 });
    expect(parseCommandLine(["prize-root", "--week", "3"])).toEqual({ command: "prize-root", week: 3 });
    expect(parseCommandLine(["import-events", "events.json"])).toEqual({
      command: "import-events",
      file: "events.json",
    });
    expect(parseCommandLine(["seed-demo"])).toEqual({ command: "seed-demo", players: 300, seed: "demo" });
    expect(parseCommandLine(["seed-demo", "--players", "40", "--seed", "x"])).toEqual({
      command: "seed-demo",
      players: 40,
      seed: "x",
    });
    expect(
      parseCommandLine([
        "event-result",
        "--id",
        "e1",
        "--status",
        "finished",
        "--winning-outcome",
        "home",
        "--market-winner",
        "totals=over",
      ]),
    ).toEqual({
      command: "event-result",
      id: "e1",
      body: { status: "finished", winningOutcome: "home", winningOutcomes: { totals: "over" } },
    });
    expect(parseCommandLine(["event-result", "--id", "e1", "--status", "cancelled"])).toEqual({
      command: "event-result",
      id: "e1",
      body: { status: "cancelled" },
    });
  });

  it("reads a player's commands, which call a server", () => {
    const key = `0x${"0".repeat(63)}1`;
    expect(parseCommandLine(["sign-in", "--key", key])).toEqual({ command: "sign-in", key });
    expect(
      parseCommandLine([
        "sign-in",
        "--key",
        key,
        "--referral-code",
        "ABCD",
        "--url",
        "https://api.example.com/x",
      ]),
    ).toEqual({ command: "sign-in", key, referralCode: "ABCD", url: "https://api.example.com" });
    expect(parseCommandLine(["whoami"])).toEqual({ command: "whoami" });
    expect(parseCommandLine(["sign-out", "--url", "http://127.0.0.1:4000"])).toEqual({
      command: "sign-out",
      url: "http://127.0.0.1:4000",
    });
    expect(parseCommandLine(["events", "--sport", "football", "--limit", "5"])).toEqual({
      command: "events",
      query: { sport: "football", limit: 5 },
    });
    expect(
      parseCommandLine([
        "bet",
        "--event",
        "e1",
        "--market",
        "1x2",
        "--outcome",
        "home",
        "--stake",
        "100",
        "--odds",
        "2.15",
      ]),
    ).toEqual({
      command: "bet",
      body: { eventId: "e1", market: "1x2", outcome: "home", stake: 100, expectedOdds: 2.15 },
    });
    expect(parseCommandLine(["predictions", "--status", "won", "--cursor", "abc"])).toEqual({
      command: "predictions",
      query: { status: "won", cursor: "abc" },
    });
    expect(parseCommandLine(["claim", "--prediction", "7"])).toEqual({ command: "claim", predictionId: "7" });
    expect(parseCommandLine(["me", "--week", "3"])).toEqual({ command: "me", week: 3 });
    expect(parseCommandLine(["me"])).toEqual({ command: "me" });
    expect(parseCommandLine(["clock", "--now", "2030-01-01T12:00:00Z"])).toEqual({
      command: "clock",
      now: "2030-01-01T12:00:00Z",
    });
    expect(parseCommandLine(["clock", "--real"])).toEqual({ command: "clock", now: null });
  });

  it("takes --print FIELD from anywhere on the line, and picks that field", () => {
    expect(takePrintOption(["bet", "--print", "prediction.id", "--stake", "1"])).toEqual({
      argv: ["bet", "--stake", "1"],
      print: "prediction.id",
    });
    expect(takePrintOption(["me", "--print=week"])).toEqual({ argv: ["me"], print: "week" });
    expect(takePrintOption(["me"])).toEqual({ argv: ["me"], print: null });
    expect(() => takePrintOption(["me", "--print"])).toThrow(UsageError);
    expect(() => takePrintOption(["me", "--print", "a..b"])).toThrow(/field path/);
    const result = { prediction: { id: "12" }, items: [{ id: "a" }] };
    expect(pickField(result, "prediction.id")).toBe("12");
    expect(pickField(result, "items.0.id")).toBe("a");
    expect(() => pickField(result, "prediction.nope")).toThrow("the result has no field nope");
  });

  it.each([
    [["nope"], /unknown command "nope"/],
    [["finalize"], /--week is required/],
    [["finalize", "--week", "1.5"], /--week must be a non-negative integer/],
    [["finalize", "--week", "1", "--bogus"], /finalize: Unknown option '--bogus'/],
    [["finalize", "--week", "1", "extra"], /unexpected argument "extra"/],
    [["prize-root"], /prize-root: --week is required/],
    [["sp-transaction", "--type", "PREDICTION", "--amount", "1", "--external-id", "x"], /exactly one of/],
    [["import-events"], /expected 1 file argument, got 0/],
    [["sp-transaction", "--user-id", "1", "--amount", "-5"], /use '--amount=-XYZ'/],
    [["seed-demo", "--players", "many"], /--players must be a non-negative integer/],
    [["sign-in"], /sign-in: --key is required/],
    [["sign-in", "--key", "0x1234"], /--key must be a private key/],
    [["sign-in", "--key", `0x${"1".repeat(64)}`, "--url", "ftp://x"], /--url must be an http\(s\) URL/],
    [["bet", "--event", "e", "--market", "m", "--outcome", "o", "--stake", "ten"], /--stake must be/],
    [
      ["bet", "--event", "e", "--market", "m", "--outcome", "o", "--stake", "1", "--odds", "x"],
      /--odds must be a number/,
    ],
    [["bet", "--event", "e", "--outcome", "o", "--stake", "1"], /--market is required/],
    [["predictions", "--status", "lucky"], /--status must be one of pending, open, won/],
    [["claim"], /--prediction is required/],
    [["clock"], /exactly one of --now ISO or --real/],
    [["clock", "--real", "--now", "2030-01-01T00:00:00Z"], /exactly one of/],
  ])("rejects %j", (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});

describe("output", () => {
  it("prints failures on one line with their code", () => {
    expect(errorLine(new AppError("WEEK_NOT_ENDED", "Week 3 has not ended yet"))).toBe(
      "WEEK_NOT_ENDED: Week 3 has not ended yet",
    );
    expect(errorLine(new ConfigError("PORT: must be a whole number"))).toBe(
      "CONFIG_INVALID: PORT: must be a whole number",
    );
    expect(errorLine(new Error("connect ECONNREFUSED\n  at somewhere"))).toBe(
      "INTERNAL: connect ECONNREFUSED at somewhere",
    );
    expect(errorLine(new UsageError("unknown command"))).toMatch(/^USAGE: unknown command/);
  });

  it("writes JSON, bigints as strings", () => {
    expect(JSON.parse(toJson({ id: 12n, ok: true }))).toEqual({ id: "12", ok: true });
  });
});
