/**
 * `npm run demo`: the service on a local chain, so USDC bets, winnings and prize claims can be tried from the page
 * with any browser wallet (SPEC §12 "Demo chain").
 *
 * 1. A ganache chain in this process (chain id 1337) on DEMO_CHAIN_PORT (default 8545) of 127.0.0.1, the demo's
 *    funder account holding the native coin.
 * 2. The contracts, deployed by the funder (deploy-contracts.ts): TestUSDC, SpBetting (odds signer = a dev key),
 *    PrizeDistributor; one house fee collected on SpBetting (the fee source the fee indexer reads).
 * 3. The service (src/server.ts startService) on a fresh embedded database in a temporary folder (the chain is new
 *    on every run, so the indexers' progress must be too), with CHAIN_VERIFIER=rpc, the fee and prize-claim
 *    indexers on, a season around today, the demo season seeded (`seed-demo`, DEMO_PLAYERS players, default 120),
 *    and `POST /api/demo/faucet {address}` sending test USDC and gas.
 * 4. Prints the page's URL, the RPC URL and chain id to add to a browser wallet, and the faucet call.
 *
 * Every key here is a publicly known development key (the Hardhat / Anvil test mnemonic): the demo refuses
 * NODE_ENV=production, and the service refuses those keys in production anyway.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ganache from "ganache";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  toHex,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { seedDemoCommand } from "../src/cli/seed-demo.js";
import { type Config, ConfigError, loadConfig } from "../src/config.js";
import { demoSeason } from "../src/demo/demo-season.js";
import { type Deploy, deployDemoContracts } from "../src/demo/deploy-contracts.js";
import { Faucet } from "../src/demo/faucet.js";
import { startService } from "../src/server.js";
import { DEVELOPMENT_MNEMONICS } from "../src/shared/known-secrets.js";

export const DEMO_CHAIN_ID = 1337;
/** Account i of the Hardhat / Anvil development mnemonic: public keys, fine for a throw-away local chain. */
const devKey = (i: number) =>
  toHex(mnemonicToAccount(DEVELOPMENT_MNEMONICS[0], { addressIndex: i }).getHdKey().privateKey!);
/** Account 0: deploys and owns the contracts, funds the faucet and the house's payouts. */
const FUNDER_KEY = devKey(0);
/** Account 1: signs the odds quotes. */
const ODDS_SIGNER_KEY = devKey(1);
/** Account 2: signs the payout vouchers (a key of its own). */
const PAYOUT_SIGNER_KEY = devKey(2);
/** The house's money in the betting contract, for winnings: 100,000 USDC. */
const HOUSE_FUNDS = 100_000_000_000n;
const GAS_PRICE = 10_000_000_000n;

/** Sends transactions from a key: signed here with every field given, sent raw, awaited (ganache-friendly). */
function sender(client: PublicClient, key: Hex) {
  const account = privateKeyToAccount(key);
  return async (tx: { to?: Address; data: Hex; gas?: bigint }) => {
    const nonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
    const raw = await account.signTransaction({
      type: "legacy",
      chainId: DEMO_CHAIN_ID,
      to: tx.to ?? null,
      data: tx.data,
      gas: tx.gas ?? 6_000_000n,
      gasPrice: GAS_PRICE,
      nonce,
    });
    await client.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await client.waitForTransactionReceipt({
      hash: keccak256(raw),
      timeout: 30_000,
      pollingInterval: 50,
    });
    if (receipt.status !== "success")
      throw new Error(`demo transaction reverted: ${receipt.transactionHash}`);
    return receipt;
  };
}

function int(name: string, dflt: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d{1,6}$/.test(raw)) {
    console.error(`Invalid configuration: ${name}: must be a whole number, got ${JSON.stringify(raw)}`);
    process.exit(1);
  }
  return Number(raw);
}

async function main(): Promise<void> {
  if (process.env.NODE_ENV === "production") {
    console.error("npm run demo uses publicly known development keys: it refuses NODE_ENV=production.");
    process.exit(1);
  }
  const chainPort = int("DEMO_CHAIN_PORT", 8545);
  const players = int("DEMO_PLAYERS", 120);

  const chain = ganache.server({
    logging: { quiet: true },
    chain: { chainId: DEMO_CHAIN_ID },
    wallet: {
      accounts: [{ secretKey: FUNDER_KEY, balance: `0x${(10n ** 24n).toString(16)}` }],
    },
  });
  await chain.listen(chainPort, "127.0.0.1");
  const rpcUrl = `http://127.0.0.1:${chain.address()!.port}`;
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) }) as PublicClient;
  const send = sender(client, FUNDER_KEY);
  const deploy: Deploy = async (data) => {
    const receipt = await send({ data });
    return { address: receipt.contractAddress!, blockNumber: receipt.blockNumber };
  };
  const contracts = await deployDemoContracts(deploy, {
    oddsSigner: privateKeyToAccount(ODDS_SIGNER_KEY).address,
    payoutSigner: privateKeyToAccount(PAYOUT_SIGNER_KEY).address,
  });
  const from = String(contracts.usdc.blockNumber);

  // The house's money for winnings, and one house fee, collected on-chain, for the fee indexer to read into this
  // week's fees.
  const fee = 25_000_000n;
  await send({
    to: contracts.usdc.address,
    data: encodeFunctionData({
      abi: contracts.usdc.abi,
      functionName: "mint",
      args: [contracts.betting.address, HOUSE_FUNDS + fee],
    }),
  });
  await send({
    to: contracts.betting.address,
    data: encodeFunctionData({ abi: contracts.betting.abi, functionName: "collectFees", args: [[fee]] }),
  });

  const dataDir = mkdtempSync(join(tmpdir(), "sp-demo-"));
  const season = demoSeason(new Date());
  const { DATABASE_URL: _ignored, ...base } = process.env;
  const env: Record<string, string | undefined> = {
    CHAMPIONS_SEASON_START_ISO: season.seasonStart,
    CHAMPIONS_WEEK_ONE_START_ISO: season.weekOneStart,
    PROTOCOL_INCENTIVE_USDC: "250",
    ...base,
    DATA_DIR: dataDir,
    CHAIN_VERIFIER: "rpc",
    CHAIN_RPC_URL: rpcUrl,
    CHAIN_ID: String(DEMO_CHAIN_ID),
    // The page asks a wallet on another chain to switch to the first one.
    SIWE_CHAIN_IDS: `${DEMO_CHAIN_ID},1,8453`,
    BETTING_CONTRACT_ADDRESS: contracts.betting.address,
    USDC_ADDRESS: contracts.usdc.address,
    ODDS_SIGNER_PRIVATE_KEY: ODDS_SIGNER_KEY,
    PAYOUT_SIGNER_PRIVATE_KEY: PAYOUT_SIGNER_KEY,
    CHAIN_CONFIRMATIONS: "1",
    CHAIN_FINALITY: "confirmations",
    CHAIN_POLL_MS: "1000",
    BET_INDEXER_FROM_BLOCK: from,
    FEE_INDEXER: "on",
    FEE_INDEXER_FROM_BLOCK: from,
    PRIZE_DISTRIBUTOR_ADDRESS: contracts.prizeDistributor.address,
    PRIZE_INDEXER_FROM_BLOCK: from,
  };
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    await chain.close();
    if (err instanceof ConfigError) {
      console.error(`Invalid configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  const faucet = new Faucet({
    rpcUrl,
    chainId: DEMO_CHAIN_ID,
    usdc: contracts.usdc.address,
    funderKey: FUNDER_KEY,
    clock: { now: () => new Date() },
  });
  console.log(`Seeding the demo season (${players} players)…`);
  const { address } = await startService(config, {
    demo: { faucet },
    // The seed's fees and finalized weeks are its own: the indexers start on the fresh chain afterwards.
    prepare: async (ctx) => {
      const seeded = await seedDemoCommand(
        { ...ctx, config: { ...ctx.config, feeIndexer: null, betIndexer: null } },
        { players, seed: "demo" },
      );
      console.log(`Seeded in ${(seeded.elapsedMs / 1000).toFixed(1)} s: week ${seeded.currentWeek} is live.`);
    },
    onShutdown: async () => {
      await chain.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  const page = address.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, "//127.0.0.1");
  console.log(
    [
      "",
      `The demo is running: open ${page}/`,
      "",
      "Add this network to your browser wallet:",
      `  RPC URL   ${rpcUrl}`,
      `  chain id  ${DEMO_CHAIN_ID}`,
      "  currency  ETH",
      "",
      "Fund your wallet with test USDC and gas:",
      `  curl -X POST ${page}/api/demo/faucet -H 'content-type: application/json' -d '{"address":"0xYOUR_ADDRESS"}'`,
      "",
      `Contracts: USDC ${contracts.usdc.address}, SpBetting ${contracts.betting.address}, PrizeDistributor ${contracts.prizeDistributor.address}`,
      `Database: a fresh embedded one in ${dataDir} (removed on Ctrl-C). Keys are public dev keys: never reuse them.`,
      "",
    ].join("\n"),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
