/**
 * The chain settings of loadConfig: CHAIN_VERIFIER, CHAIN_*, BETTING_CONTRACT_ADDRESS, USDC_ADDRESS, the odds
 * signer (ODDS_SIGNER_PRIVATE_KEY, QUOTE_TTL_SECONDS), the payout signer (PAYOUT_SIGNER_PRIVATE_KEY,
 * PAYOUT_VOUCHER_TTL_SECONDS), the bet indexer, the fee indexer with its event and the prize distributor
 * (PRIZE_DISTRIBUTOR_ADDRESS, PRIZE_INDEXER_*).
 */
import { randomBytes } from "node:crypto";
import { toHex } from "viem";
import { generatePrivateKey, mnemonicToAccount, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import { DERIVED_ACCOUNTS, DEVELOPMENT_MNEMONICS, developmentKeys } from "../shared/known-secrets.js";

const ADDRESS = "0x2946259E0334f33A064106302415aD3391BeD384";
const OTHER = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
/** A random key (`openssl rand -hex 32`) and its address. */
const KEY = "0x4442369ed0f9186ed28c3a7f804ca928593fedabb965d3322630570b19770f80";
const SIGNER = "0x6144310dDb61C8A19634621ee19A4DC02eEa8d3a";
/** Another random key, for the payout signer, and its address. */
const PAYOUT_KEY = "0x9d0cbbc46d43d6b3a8cef3ad7e4a2b0b8a4c1f3e5d7b9a1c3e5f7092b4d6f8a1";
const PAYOUT_SIGNER = privateKeyToAddress(PAYOUT_KEY);
const RPC = {
  CHAIN_VERIFIER: "rpc",
  CHAIN_RPC_URL: "https://rpc.example.org/v1",
  BETTING_CONTRACT_ADDRESS: ADDRESS,
  CHAIN_ID: "8453",
  ODDS_SIGNER_PRIVATE_KEY: KEY,
  PAYOUT_SIGNER_PRIVATE_KEY: PAYOUT_KEY,
};
/** Production secrets and keys made now: production refuses any written in this repository, this file included. */
const fresh = () => randomBytes(20).toString("hex");
const PRODUCTION = {
  NODE_ENV: "production",
  CHAMPIONS_SEASON_START_ISO: "2027-03-01T00:00:00.000Z",
  CHAMPIONS_WEEK_ONE_START_ISO: "2027-03-09T00:00:00.000Z",
  FINALIZE_SECRET: fresh(),
  ADMIN_TOKEN: fresh(),
  JWT_SECRET: fresh(),
};
const PRODUCTION_RPC = {
  ...RPC,
  ...PRODUCTION,
  ODDS_SIGNER_PRIVATE_KEY: generatePrivateKey(),
  PAYOUT_SIGNER_PRIVATE_KEY: generatePrivateKey(),
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
    expect(loadConfig({})).toMatchObject({
      chainVerifier: "none",
      chain: null,
      betIndexer: null,
      feeIndexer: null,
      quotes: null,
    });
  });

  it("reads the RPC verifier's chain, bet indexer and odds signer with their defaults; addresses lower-case", () => {
    const c = loadConfig(RPC);
    expect(c).toMatchObject({
      chainVerifier: "rpc",
      chain: {
        rpcUrl: "https://rpc.example.org/v1",
        chainId: 8453,
        contract: ADDRESS.toLowerCase(),
        usdc: null,
        confirmations: 3,
        finality: "finalized",
        pollMs: 5000,
      },
      betIndexer: { fromBlock: 0n, blockRange: 2000 },
      feeIndexer: null,
      quotes: { signerKey: KEY, signer: SIGNER, ttlSeconds: 60 },
      payouts: { signerKey: PAYOUT_KEY, signer: PAYOUT_SIGNER, ttlSeconds: 86_400 },
    });
  });

  it("reads every chain variable", () => {
    const c = loadConfig({
      ...RPC,
      USDC_ADDRESS: OTHER,
      CHAIN_CONFIRMATIONS: "12",
      CHAIN_FINALITY: "confirmations",
      CHAIN_POLL_MS: "250",
      QUOTE_TTL_SECONDS: "30",
      BET_INDEXER_FROM_BLOCK: "777",
      BET_INDEXER_BLOCK_RANGE: "100",
      PAYOUT_VOUCHER_TTL_SECONDS: "3600",
    });
    expect(c).toMatchObject({
      chain: { usdc: OTHER.toLowerCase(), confirmations: 12, finality: "confirmations", pollMs: 250 },
      betIndexer: { fromBlock: 777n, blockRange: 100 },
      quotes: { ttlSeconds: 30 },
      payouts: { ttlSeconds: 3600 },
    });
  });

  it("reads the fee indexer, which needs the chain but not the RPC verifier; by default FeeCollected(amount)", () => {
    const c = loadConfig({
      CHAIN_RPC_URL: RPC.CHAIN_RPC_URL,
      BETTING_CONTRACT_ADDRESS: ADDRESS,
      CHAIN_ID: "8453",
      FEE_INDEXER: "on",
      FEE_INDEXER_FROM_BLOCK: "123456",
      FEE_INDEXER_BLOCK_RANGE: "500",
    });
    expect(c).toMatchObject({
      chainVerifier: "none",
      chain: { chainId: 8453 },
      betIndexer: null,
      quotes: null,
      feeIndexer: {
        fromBlock: 123456n,
        blockRange: 500,
        addresses: [ADDRESS.toLowerCase()],
        event: { signature: "event FeeCollected(uint256 amount)", amountArg: "amount", decimals: 6 },
      },
    });
    // keccak256("FeeCollected(uint256)")
    expect(c.feeIndexer?.event.topic0).toBe(
      "0xc472cb3a7a659a876494d66b3063145f279701771d6150b9329c31611ed6405c",
    );
  });

  it("reads another protocol's fee event at several addresses, without a betting contract", () => {
    const c = loadConfig({
      CHAIN_RPC_URL: RPC.CHAIN_RPC_URL,
      CHAIN_ID: "8453",
      FEE_INDEXER: "on",
      FEE_CONTRACT_ADDRESSES: `${OTHER}, ${ADDRESS.toLowerCase()}`,
      FEE_EVENT_SIGNATURE: "event FeesPaid(address indexed market, uint128 indexed feeAmount, bytes32 ref)",
      FEE_EVENT_AMOUNT_ARG: "feeAmount",
      FEE_TOKEN_DECIMALS: "18",
    });
    expect(c.chain?.contract).toBeNull();
    expect(c.feeIndexer).toMatchObject({
      addresses: [ADDRESS.toLowerCase(), OTHER.toLowerCase()],
      event: { amountArg: "feeAmount", decimals: 18, abi: { name: "FeesPaid" } },
    });
  });

  it("serves quotes with a signer, a chain id and a contract, even without reading the chain", () => {
    const c = loadConfig({
      CHAIN_ID: "8453",
      BETTING_CONTRACT_ADDRESS: ADDRESS,
      ODDS_SIGNER_PRIVATE_KEY: KEY,
    });
    expect(c).toMatchObject({
      chainVerifier: "none",
      chain: { rpcUrl: null, chainId: 8453 },
      betIndexer: null,
    });
    expect(c.quotes?.signerKey).toBe(KEY);
  });

  it("reads the prize distributor alone, with its indexer's start and range", () => {
    const c = loadConfig({
      PRIZE_DISTRIBUTOR_ADDRESS: ADDRESS,
      CHAIN_RPC_URL: RPC.CHAIN_RPC_URL,
      CHAIN_ID: "8453",
      PRIZE_INDEXER_FROM_BLOCK: "42",
    });
    expect(c).toMatchObject({
      chain: { chainId: 8453 },
      betIndexer: null,
      feeIndexer: null,
      prizeDistributor: { contract: ADDRESS.toLowerCase(), fromBlock: 42n, blockRange: 2000 },
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
      "CHAIN_RPC_URL: is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on or PRIZE_DISTRIBUTOR_ADDRESS is set",
    ],
    [
      "a prize distributor without a URL",
      { PRIZE_DISTRIBUTOR_ADDRESS: ADDRESS, CHAIN_ID: "8453" },
      "CHAIN_RPC_URL: is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on or PRIZE_DISTRIBUTOR_ADDRESS is set",
    ],
    [
      "a prize distributor without a chain id",
      { PRIZE_DISTRIBUTOR_ADDRESS: ADDRESS, CHAIN_RPC_URL: RPC.CHAIN_RPC_URL },
      "CHAIN_ID: is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on, ODDS_SIGNER_PRIVATE_KEY or PRIZE_DISTRIBUTOR_ADDRESS is set",
    ],
    [
      "a bad prize distributor address",
      { PRIZE_DISTRIBUTOR_ADDRESS: "0x12", CHAIN_RPC_URL: RPC.CHAIN_RPC_URL, CHAIN_ID: "8453" },
      'PRIZE_DISTRIBUTOR_ADDRESS: must be a 0x address (checksummed when mixed-case), got "0x12"',
    ],
    [
      "rpc without a betting contract",
      { ...RPC, BETTING_CONTRACT_ADDRESS: "" },
      "BETTING_CONTRACT_ADDRESS: is required when CHAIN_VERIFIER=rpc or ODDS_SIGNER_PRIVATE_KEY is set",
    ],
    [
      "rpc without an odds signer",
      { ...RPC, ODDS_SIGNER_PRIVATE_KEY: "" },
      "ODDS_SIGNER_PRIVATE_KEY: is required when CHAIN_VERIFIER=rpc (bets count only at quoted odds)",
    ],
    [
      "the fee indexer without any contract",
      { FEE_INDEXER: "on", CHAIN_RPC_URL: RPC.CHAIN_RPC_URL, CHAIN_ID: "8453" },
      "FEE_CONTRACT_ADDRESSES: is required when FEE_INDEXER=on and BETTING_CONTRACT_ADDRESS is unset",
    ],
    [
      "rpc without a chain id",
      { ...RPC, CHAIN_ID: "" },
      "CHAIN_ID: is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on, ODDS_SIGNER_PRIVATE_KEY or PRIZE_DISTRIBUTOR_ADDRESS is set",
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
    ["a bad USDC address", { ...RPC, USDC_ADDRESS: "usdc" }, "USDC_ADDRESS: must be a 0x address"],
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
      "an unknown finality",
      { ...RPC, CHAIN_FINALITY: "safe" },
      'CHAIN_FINALITY: must be finalized or confirmations, got "safe"',
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
    [
      "a short signer key",
      { ...RPC, ODDS_SIGNER_PRIVATE_KEY: "0x1234" },
      "ODDS_SIGNER_PRIVATE_KEY: must be a private key: 0x followed by 64 hex digits",
    ],
    [
      "a signer key beyond the curve order",
      { ...RPC, ODDS_SIGNER_PRIVATE_KEY: `0x${"f".repeat(64)}` },
      "ODDS_SIGNER_PRIVATE_KEY: is not a valid secp256k1 private key",
    ],
    [
      "a zero quote lifetime",
      { ...RPC, QUOTE_TTL_SECONDS: "0" },
      "QUOTE_TTL_SECONDS: must be between 5 and 3600",
    ],
    [
      "a fee signature that does not parse",
      { ...RPC, FEE_INDEXER: "on", FEE_EVENT_SIGNATURE: "event Fee(uint256 amount" },
      "FEE_EVENT_SIGNATURE: is not a Solidity event signature",
    ],
    [
      "a function as the fee event",
      { ...RPC, FEE_INDEXER: "on", FEE_EVENT_SIGNATURE: "function fee(uint256 amount)" },
      'FEE_EVENT_SIGNATURE: must declare an event, like "event FeeCollected(uint256 amount)"',
    ],
    [
      "an anonymous fee event",
      { ...RPC, FEE_INDEXER: "on", FEE_EVENT_SIGNATURE: "event Fee(uint256 amount) anonymous" },
      "FEE_EVENT_SIGNATURE: is not a Solidity event signature",
    ],
    [
      "an amount argument the event lacks",
      { ...RPC, FEE_INDEXER: "on", FEE_EVENT_AMOUNT_ARG: "fee" },
      "FEE_EVENT_AMOUNT_ARG: must name an argument of FeeCollected (amount)",
    ],
    [
      "a signed amount argument",
      { ...RPC, FEE_INDEXER: "on", FEE_EVENT_SIGNATURE: "event Fee(int256 amount)" },
      "FEE_EVENT_AMOUNT_ARG: must be an unsigned integer argument, amount is int256",
    ],
    [
      "too many decimals",
      { ...RPC, FEE_TOKEN_DECIMALS: "40" },
      "FEE_TOKEN_DECIMALS: must be between 0 and 36",
    ],
    [
      "a bad fee address",
      { ...RPC, FEE_INDEXER: "on", FEE_CONTRACT_ADDRESSES: `${ADDRESS},0x12` },
      'FEE_CONTRACT_ADDRESSES: must be comma-separated 0x addresses, got "0x12"',
    ],
  ])("refuses %s", (_, env, message) => {
    expect(refusal(env)).toContain(message);
  });

  it("accepts the RPC verifier with random signer keys in production", () => {
    expect(loadConfig(PRODUCTION_RPC).chainVerifier).toBe("rpc");
  });

  it("needs a payout signer of its own with the RPC verifier, and none without it", () => {
    const { PAYOUT_SIGNER_PRIVATE_KEY: _, ...withoutPayout } = RPC;
    expect(refusal(withoutPayout)).toBe(
      "PAYOUT_SIGNER_PRIVATE_KEY: is required when CHAIN_VERIFIER=rpc (the chain pays winnings)",
    );
    expect(refusal({ ...RPC, PAYOUT_SIGNER_PRIVATE_KEY: KEY.toUpperCase().replace("0X", "0x") })).toBe(
      "PAYOUT_SIGNER_PRIVATE_KEY: must be a key of its own, not ODDS_SIGNER_PRIVATE_KEY",
    );
    expect(refusal({ PAYOUT_SIGNER_PRIVATE_KEY: PAYOUT_KEY })).toBe(
      "PAYOUT_SIGNER_PRIVATE_KEY: is used only with CHAIN_VERIFIER=rpc",
    );
    expect(refusal({ ...RPC, PAYOUT_VOUCHER_TTL_SECONDS: "59" })).toBe(
      "PAYOUT_VOUCHER_TTL_SECONDS: must be between 60 and 2592000, got 59",
    );
  });

  it("keeps CHAIN_VERIFIER=trust impossible in production", () => {
    expect(refusal({ ...PRODUCTION, CHAIN_VERIFIER: "trust" })).toBe(
      "CHAIN_VERIFIER: trust is a development verifier, refused in production",
    );
  });

  const account = (mnemonic: string, i: number) =>
    toHex(mnemonicToAccount(mnemonic, { addressIndex: i }).getHdKey().privateKey!);
  const HARDHAT = DEVELOPMENT_MNEMONICS[0];
  const GANACHE = DEVELOPMENT_MNEMONICS[1];

  it.each([
    ["Hardhat / Anvil's first account", account(HARDHAT, 0), "an account of a development mnemonic"],
    // The attack of issue 20: account 10, just past the ten accounts the tools hand out.
    ["Hardhat / Anvil's account 10", account(HARDHAT, 10), "an account of a development mnemonic"],
    ["Hardhat / Anvil's account 999", account(HARDHAT, 999), "an account of a development mnemonic"],
    ["ganache --deterministic's account 42", account(GANACHE, 42), "an account of a development mnemonic"],
    ["a test key (0x…02)", `0x${"2".padStart(64, "0")}`, "below 2^128: a hand-typed or test key"],
    ["a key below 2^128", `0x${"0".repeat(32)}${"f".repeat(32)}`, "below 2^128: a hand-typed or test key"],
    // The keys the chain tests write: patterns...
    ["the chain tests' odds signer 0x0d…0d", `0x${"0d".repeat(32)}`, "a repeated pattern, not a random key"],
    ["a chain test's wallet 0x77…77", `0x${"77".repeat(32)}`, "a repeated pattern, not a random key"],
    ["a chain test's attacker 0xa7…a7", `0x${"a7".repeat(32)}`, "a repeated pattern, not a random key"],
    // ...and a random one, written in this file (and so public).
    [
      "a random key written in this repository",
      KEY,
      "written in this repository: src/chain/chain-config.test.ts",
    ],
  ])("refuses %s as a signer in production (and accepts it in development)", (_, key, why) => {
    expect(refusal({ ...PRODUCTION_RPC, ODDS_SIGNER_PRIVATE_KEY: key })).toBe(
      `ODDS_SIGNER_PRIVATE_KEY: is a publicly known key (${why}), refused in production`,
    );
    expect(refusal({ ...PRODUCTION_RPC, PAYOUT_SIGNER_PRIVATE_KEY: key })).toBe(
      `PAYOUT_SIGNER_PRIVATE_KEY: is a publicly known key (${why}), refused in production`,
    );
    expect(loadConfig({ ...RPC, ODDS_SIGNER_PRIVATE_KEY: key }).quotes?.signerKey).toBe(key.toLowerCase());
  });

  it("takes as known the first 1,000 accounts of both development mnemonics, and not the next", () => {
    expect(DERIVED_ACCOUNTS).toBe(1000);
    const keys = developmentKeys();
    expect(keys.size).toBe(2000);
    expect(keys.has(account(HARDHAT, 0))).toBe(true);
    expect(keys.has(account(GANACHE, 999))).toBe(true);
    expect(keys.has(account(HARDHAT, 1000))).toBe(false);
  });
});
