import { describe, expect, it } from "vitest";
import { ConfigError } from "../config.js";
import { AppError } from "../errors.js";
import { parseCommandLine, UsageError } from "./arguments.js";
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
