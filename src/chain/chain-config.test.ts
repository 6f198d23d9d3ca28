/** The chain settings of loadConfig: CHAIN_VERIFIER=rpc, CHAIN_*, BETTING_CONTRACT_ADDRESS, FEE_INDEXER*. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";

const ADDRESS = "0x2946259E0334f33A064106302415aD3391BeD384";
const RPC = {
  CHAIN_VERIFIER: "rpc",
  CHAIN_RPC_URL: "https://rpc.example.org/v1",
  BETTING_CONTRACT_ADDRESS: ADDRESS,
  CHAIN_ID: "8453",
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).not.toMatch(/[\r\n]/);
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("chain configuration", () => {
  it("is off by default", () => {
    expect(loadConfig({})).toMatchObject({ chainVerifier: "none", chain: null, feeIndexer: null });
  });

  it("reads the RPC verifier's chain with its defaults; the address is kept lower-case", () => {
    expect(loadConfig(RPC)).toMatchObject({
      chainVerifier: "rpc",
      chain: {
        rpcUrl: "https://rpc.example.org/v1",
        chainId: 8453,
        contract: ADDRESS.toLowerCase(),
        confirmations: 3,
        pollMs: 5000,
      },
      feeIndexer: null,
    });
  });

  it("reads the fee indexer, which needs the chain but not the RPC verifier", () => {
    const { CHAIN_VERIFIER: _, ...chain } = RPC;
    const c = loadConfig({
      ...chain,
      FEE_INDEXER: "on",
      FEE_INDEXER_FROM_BLOCK: "123456",
      FEE_INDEXER_BLOCK_RANGE: "500",
      CHAIN_CONFIRMATIONS: "12",
      CHAIN_POLL_MS: "250",
    });
    expect(c).toMatchObject({
      chainVerifier: "none",
      chain: { chainId: 8453, confirmations: 12, pollMs: 250 },
      feeIndexer: { fromBlock: 123456n, blockRange: 500 },
    });
  });

  it.each<[string, Record<string, string>, string]>([
    [
      "an unknown verifier",
      { CHAIN_VERIFIER: "ethers" },
      'CHAIN_VERIFIER: must be none, trust or rpc, got "ethers"',
    ],
    [
      "rpc without a URL",
      { ...RPC, CHAIN_RPC_URL: "" },
      "CHAIN_RPC_URL: is required when CHAIN_VERIFIER=rpc or FEE_INDEXER=on",
    ],
    [
      "the indexer without an address",
      { FEE_INDEXER: "on", CHAIN_RPC_URL: RPC.CHAIN_RPC_URL, CHAIN_ID: "8453" },
      "BETTING_CONTRACT_ADDRESS: is required when CHAIN_VERIFIER=rpc or FEE_INDEXER=on",
    ],
    [
      "rpc without a chain id",
      { ...RPC, CHAIN_ID: "" },
      "CHAIN_ID: is required when CHAIN_VERIFIER=rpc or FEE_INDEXER=on",
    ],
    [
      "a websocket URL",
      { ...RPC, CHAIN_RPC_URL: "wss://rpc.example.org" },
      "CHAIN_RPC_URL: must use http: or https:",
    ],
    [
      "a short address",
      { ...RPC, BETTING_CONTRACT_ADDRESS: "0x1234" },
      'BETTING_CONTRACT_ADDRESS: must be a 0x address (checksummed when mixed-case), got "0x1234"',
    ],
    [
      "a mixed-case address with a bad checksum",
      { ...RPC, BETTING_CONTRACT_ADDRESS: ADDRESS.replace("E", "e") },
      "BETTING_CONTRACT_ADDRESS: must be a 0x address",
    ],
    [
      "a chain bets cannot be reported on",
      { ...RPC, CHAIN_ID: "10" },
      "CHAIN_ID: must be one of SIWE_CHAIN_IDS (1,8453) so bets on it can be reported",
    ],
    [
      "zero confirmations",
      { ...RPC, CHAIN_CONFIRMATIONS: "0" },
      "CHAIN_CONFIRMATIONS: must be between 1 and 10000",
    ],
    [
      "a tiny poll interval",
      { ...RPC, CHAIN_POLL_MS: "5" },
      "CHAIN_POLL_MS: must be between 100 and 3600000",
    ],
    ["FEE_INDEXER=yes", { ...RPC, FEE_INDEXER: "yes" }, 'FEE_INDEXER: must be on or off, got "yes"'],
    [
      "a negative start block",
      { ...RPC, FEE_INDEXER: "on", FEE_INDEXER_FROM_BLOCK: "-1" },
      'FEE_INDEXER_FROM_BLOCK: must be a whole number, got "-1"',
    ],
  ])("refuses %s", (_, env, message) => {
    expect(refusal(env)).toContain(message);
  });

  it("accepts the RPC verifier in production", () => {
    const c = loadConfig({
      ...RPC,
      NODE_ENV: "production",
      CHAMPIONS_SEASON_START_ISO: "2027-03-01T00:00:00.000Z",
      CHAMPIONS_WEEK_ONE_START_ISO: "2027-03-09T00:00:00.000Z",
      FINALIZE_SECRET: "prod-finalize-secret-7c1e",
      ADMIN_TOKEN: "prod-admin-token-41bd",
      JWT_SECRET: "prod-jwt-secret-0123456789abcdef0123",
    });
    expect(c.chainVerifier).toBe("rpc");
  });
});
