/**
 * A service wired to a real local chain (ganache) with the project's contracts deployed: the app with
 * CHAIN_VERIFIER=rpc and an odds signer, its chain indexers run on demand, and players who sign in with the
 * wallets that bet on-chain. Quotes last an hour (QUOTE_TTL_SECONDS=3600) because the service's clock is pinned
 * while the chain's runs in real time.
 */
import type { Hex } from "viem";
import { type ChainIndexers, chainIndexers } from "../../src/chain/chain-jobs.js";
import type { Database } from "../../src/db/client.js";
import { call, createTestApp, signIn, type TestApp, testKey } from "../app.js";
import { dataOf, post } from "../player-api.js";
import {
  type BettingFixture,
  deployBetting,
  ODDS_SIGNER_KEY,
  PAYOUT_SIGNER_KEY,
  type SignedQuote,
} from "./betting-fixture.js";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "./local-chain.js";

export const silent = { warn: () => {}, error: () => {}, info: () => {} };

export interface Player {
  i: number;
  cookie: string;
  userId: string;
  wallet: string;
}

export interface ChainWorld {
  chain: LocalChain;
  betting: BettingFixture;
  t: TestApp;
  env: Record<string, string>;
  indexers: ChainIndexers;
  /** A new player signed in with the next test key, which is also a funded account on the chain. */
  newPlayer(): Promise<Player>;
  /** One run of every configured indexer (bets, payouts, fees, then prize claims), until caught up. */
  index(): Promise<void>;
  /** A quote of the service for player p (POST /api/pred2earn/quote). */
  quote(p: Player, eventId: string, market: string, outcome: string): Promise<SignedQuote>;
  /** Quotes, funds and places a bet of `amount` micro-USDC; returns the transaction hash. */
  bet(p: Player, eventId: string, outcome: string, amount: bigint, market?: string): Promise<Hex>;
  close(): Promise<void>;
}

export async function startChainWorld(opts: {
  now: Date;
  chainStart?: Date;
  env?: Record<string, string>;
  /** Runs on the chain before the app is built (e.g. deploys another contract); its answer is added to `env`. */
  prepare?: (chain: LocalChain, betting: BettingFixture) => Promise<Record<string, string>>;
  database?: Database;
}): Promise<ChainWorld> {
  const chain = await startLocalChain({ startTime: opts.chainStart ?? opts.now });
  const betting = await deployBetting(chain);
  const prepared = (await opts.prepare?.(chain, betting)) ?? {};
  const env = {
    CHAIN_VERIFIER: "rpc",
    CHAIN_RPC_URL: chain.url,
    BETTING_CONTRACT_ADDRESS: betting.betting,
    CHAIN_ID: String(LOCAL_CHAIN_ID),
    SIWE_CHAIN_IDS: `1,${LOCAL_CHAIN_ID}`,
    ODDS_SIGNER_PRIVATE_KEY: ODDS_SIGNER_KEY,
    PAYOUT_SIGNER_PRIVATE_KEY: PAYOUT_SIGNER_KEY,
    QUOTE_TTL_SECONDS: "3600",
    BET_INDEXER_FROM_BLOCK: String(betting.deployedAt),
    FEE_INDEXER_FROM_BLOCK: String(betting.deployedAt),
    ...opts.env,
    ...prepared,
  };
  const t = await createTestApp({ now: opts.now, env, database: opts.database });
  const indexers = chainIndexers({ config: t.config, database: t.database, clock: t.clock, log: silent });
  let keys = 1;
  const quote = async (p: Player, eventId: string, market: string, outcome: string) => {
    const res = await post(t, "/api/pred2earn/quote", p.cookie, { eventId, market, outcome });
    const data = dataOf(res);
    return { quote: data.quote, signature: data.signature };
  };
  return {
    chain,
    betting,
    t,
    env,
    indexers,
    newPlayer: async () => {
      const i = keys++;
      return { i, ...(await signIn(t, testKey(i))) };
    },
    index: async () => {
      await indexers.bets?.();
      await indexers.payouts?.();
      await indexers.fees?.();
      await indexers.prizeClaims?.();
    },
    quote,
    bet: async (p, eventId, outcome, amount, market = "1x2") =>
      betting.placeBet(p.i, await quote(p, eventId, market, outcome), amount),
    close: async () => {
      await indexers.release();
      await t.close();
      await chain.close();
    },
  };
}

/** The signed-in player's predictions, newest first (GET /api/user/predictions). */
export async function history(t: TestApp, cookie: string) {
  const res = await call(t.app, {
    method: "GET",
    url: "/api/user/predictions?limit=100",
    headers: { cookie },
  });
  return dataOf(res).items as Array<Record<string, unknown>>;
}

/** The signed-in player's competitive SP of `week` (GET /api/competition/me). */
export async function weekSp(t: TestApp, cookie: string, week: number): Promise<number> {
  const res = await call(t.app, {
    method: "GET",
    url: `/api/competition/me?week=${week}`,
    headers: { cookie },
  });
  return dataOf(res).qualification.competitiveSp;
}

/** The `bet-placed-v2` body of a 10 USDC bet on home (1x2) at 2.15, for transaction `txHash`. */
export function homeReport(eventId: string, txHash: string, over: Record<string, unknown> = {}) {
  return {
    eventId,
    market: "1x2",
    outcome: "home",
    stakeUsdc: "10",
    odds: 2.15,
    txHash,
    chainId: LOCAL_CHAIN_ID,
    ...over,
  };
}
