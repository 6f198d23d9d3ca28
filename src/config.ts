/**
 * Environment parsed and validated once at start-up. `loadConfig` returns a typed Config or throws a
 * ConfigError whose message is one line naming the variable and why it was refused. Each variable is declared
 * (type, bounds, default, meaning) in config-schema.ts and read by it; this file applies the rules between
 * variables and shapes the Config.
 */
import { isIP } from "node:net";
import { type Address, getAddress, type Hex, isAddress } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { type Env, type EnvValues, fail, parseEnv, quote } from "./config-schema.js";
import { DEFAULT_FEE_EVENT, type FeeEvent, parseFeeEvent } from "./shared/fee-event.js";
import { parseUsdc } from "./shared/money.js";
import { MAX_CHAIN_ID } from "./shared/schema-types.js";
import { validateSeason } from "./shared/season.js";
import { signerKeyProblem } from "./shared/signer-key.js";

export {
  ConfigError,
  DEFAULT_CONFIRMATIONS,
  DEFAULT_QUOTE_TTL_SECONDS,
  DEV_DEFAULTS,
} from "./config-schema.js";

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  /** Connections in the PostgreSQL pool of one instance. */
  databasePoolSize: number;
  /** PostgreSQL: the most one statement may run (the client gives up 500 ms later on a silent server). */
  databaseStatementTimeoutMs: number;
  /** PostgreSQL: the longest statement of work long by nature at scale (finalize). */
  databaseBulkStatementTimeoutMs: number;
  /** PostgreSQL: the most a query waits for a connection. */
  databaseConnectTimeoutMs: number;
  redisUrl: string | null;
  /** Redis: the most one command (a rate-limit check) waits; past it, rate limits fail open. */
  redisCommandTimeoutMs: number;
  /**
   * SIGTERM/SIGINT: how long requests in flight may take to finish before every connection is closed and the
   * process exits (idle and unused connections close at once).
   */
  shutdownTimeoutMs: number;
  /** GET /api/stream: the most live-stream connections one instance holds (more: 503). */
  streamMaxClients: number;
  /** GET /api/stream: the interval of its `: ping` comment. */
  streamPingMs: number;
  /** GET /api/stream: how often an instance's reader looks at the outbox without being woken (a lost signal). */
  streamPollMs: number;
  seasonStart: Date;
  weekOneStart: Date;
  finalizeSecret: string;
  adminToken: string;
  jwtSecret: string;
  protocolIncentiveMicro: bigint;
  /** SIWE_DOMAINS (or the older SIWE_DOMAIN), lower case; null: localhost and 127.0.0.1 of the listened port (+ PUBLIC_URL's host). */
  siweDomains: string[] | null;
  siweChainIds: number[];
  /**
   * Identity login; null when off. `authorizationUrl` is where a browser starts the issuer's sign-in (null: the
   * API accepts ID tokens, but the web page offers no identity button).
   */
  oidc: { issuer: string; audience: string; jwksUrl: string; authorizationUrl: string | null } | null;
  /** APP_ORIGINS; null: the same defaults as siweDomains, as origins (src/auth/origins.ts). */
  appOrigins: string[] | null;
  /** PUBLIC_URL: where players open the service (its host and origin join the sign-in defaults); null when unset. */
  publicUrl: string | null;
  testClock: boolean;
  rateLimits: { readPerMin: number; writePerMin: number; authPerMin: number; finalizePerMin: number };
  welcomeCredits: number;
  dailyCredits: number;
  spPerUsdc: number;
  referralRewardSp: number;
  rafflePrizeSp: number;
  /**
   * How version-2 bets are confirmed: "none" leaves them pending, "trust" (dev only) believes the report, "rpc"
   * finds them in the betting contract's BetPlaced logs (the bet indexer) and checks reports against them.
   */
  chainVerifier: "none" | "trust" | "rpc";
  /** The chain of the bets, quotes and fees; null when nothing reads or signs for a chain. */
  chain: ChainConfig | null;
  /** The BetPlaced indexer; on with CHAIN_VERIFIER=rpc, null otherwise. */
  betIndexer: { fromBlock: bigint; blockRange: number } | null;
  /** The fee indexer; null when FEE_INDEXER=off. */
  feeIndexer: FeeIndexerConfig | null;
  /** The odds signer of version-2 quotes; null when ODDS_SIGNER_PRIVATE_KEY is unset (no quotes served). */
  quotes: QuoteConfig | null;
  /**
   * The payout signer of version-2 winnings and refunds (PAYOUT_SIGNER_PRIVATE_KEY); required with
   * CHAIN_VERIFIER=rpc, null otherwise (a trusted v2 claim is then only recorded).
   */
  payouts: PayoutConfig | null;
  /** The Champions prize distributor (PRIZE_DISTRIBUTOR_ADDRESS) and its PrizeClaimed indexer; null when unset. */
  prizeDistributor: PrizeDistributorConfig | null;
  /** Serve live ranks from the in-memory rank cache (on) or straight from SQL (off). */
  rankCache: boolean;
  /**
   * TRUST_PROXY: whom to believe about the client's address (`x-forwarded-for`), as Fastify's `trustProxy`: false
   * (the socket's address), true (any proxy), or the proxies' addresses / CIDRs. Behind a load
   * balancer it must name the balancer, or every client shares its address and the per-IP rate limits.
   */
  trustProxy: boolean | string;
  logLevel: string;
  /** METRICS_TOKEN: bearer token GET /metrics requires; null leaves it open. */
  metricsToken: string | null;
  /** AUTO_FINALIZE: one instance finalizes each ended week by itself (src/competition/auto-finalize.ts). */
  autoFinalize: boolean;
  /** FINALIZE_GRACE_SECONDS: how long after a week's end the automatic finalize waits. */
  finalizeGraceSeconds: number;
  /** INDEXER_MAX_LAG_SECONDS: past this lag an indexer makes /readyz answer "degraded". */
  indexerMaxLagSeconds: number;
}

/**
 * SIWE_DOMAINS (comma-separated `host[:port]`), or the older single SIWE_DOMAIN; both at once are refused (which
 * one wins would be a guess). Null when neither is set: the defaults follow the port listened on.
 */
function domainList(v: EnvValues): string[] | null {
  const many = v.SIWE_DOMAINS;
  const one = v.SIWE_DOMAIN;
  if (many !== undefined && one !== undefined)
    fail("SIWE_DOMAIN", "set SIWE_DOMAINS or SIWE_DOMAIN, not both");
  const name = many !== undefined ? "SIWE_DOMAINS" : "SIWE_DOMAIN";
  const raw = many ?? one;
  if (raw === undefined) return null;
  const domains = raw.split(",").map((d) => d.trim().toLowerCase());
  for (const d of domains) {
    if (!/^[a-z0-9.-]+(:\d{1,5})?$/.test(d)) fail(name, `${quote(d)} is not a host or host:port`);
  }
  return [...new Set(domains)];
}

export interface ChainConfig {
  /** JSON-RPC endpoint; null when nothing reads the chain (quotes alone need none). */
  rpcUrl: string | null;
  chainId: number;
  /** Lower-case address of the betting contract; null when only fees are indexed. */
  contract: `0x${string}` | null;
  /** Lower-case address of the USDC token bets are staked in, as published to clients; null: read from the contract. */
  usdc: `0x${string}` | null;
  /** A block counts once it has this many confirmations (its own block counts as one). */
  confirmations: number;
  /**
   * "finalized": a block counts once the node's `finalized` block has reached it (where the node serves that tag)
   * and it has `confirmations`; "confirmations": `confirmations` alone.
   */
  finality: "finalized" | "confirmations";
  /** Pause between two runs of the chain jobs (bet indexer, fee indexer). */
  pollMs: number;
}

export interface FeeIndexerConfig {
  fromBlock: bigint;
  blockRange: number;
  /** Lower-case addresses whose fee events are read (FEE_CONTRACT_ADDRESSES, default the betting contract). */
  addresses: `0x${string}`[];
  event: FeeEvent;
}

export interface PrizeDistributorConfig {
  /** Lower-case address of contracts/PrizeDistributor.sol. */
  contract: `0x${string}`;
  fromBlock: bigint;
  blockRange: number;
}

export interface QuoteConfig {
  signerKey: Hex;
  /** The signer's address, checksummed: published at GET /api/chain/info and set in the contract. */
  signer: Address;
  ttlSeconds: number;
}

export interface PayoutConfig {
  signerKey: Hex;
  /** The signer's address, checksummed: published at GET /api/chain/info and set in the contract. */
  signer: Address;
  /** How long a voucher can be used (an expired one is signed again on the next claim). */
  ttlSeconds: number;
}

interface ChainSettings {
  chainVerifier: Config["chainVerifier"];
  chain: ChainConfig | null;
  betIndexer: Config["betIndexer"];
  feeIndexer: FeeIndexerConfig | null;
  quotes: QuoteConfig | null;
  payouts: PayoutConfig | null;
  prizeDistributor: PrizeDistributorConfig | null;
}

/**
 * CHAIN_VERIFIER, CHAIN_*, BETTING_CONTRACT_ADDRESS, USDC_ADDRESS, ODDS_SIGNER_PRIVATE_KEY, QUOTE_TTL_SECONDS,
 * BET_INDEXER_*, FEE_*, PRIZE_*: each validated when given; the chain is required when the RPC verifier, the fee
 * indexer, quotes or the prize distributor are on, and null otherwise. Bets of a verified or quoted chain must be
 * reportable (SIWE_CHAIN_IDS).
 */
function chainSettings(v: EnvValues, production: boolean, acceptedChainIds: number[]): ChainSettings {
  const chainVerifier = v.CHAIN_VERIFIER;
  if (chainVerifier === "trust" && production)
    fail("CHAIN_VERIFIER", "trust is a development verifier, refused in production");
  const { signerKey, payoutKey } = signerKeys(v, production);
  const feeAddresses = feeAddressesOf(v);
  const feeEvent = feeEventOf(v);
  const uses = {
    verifier: chainVerifier === "rpc",
    indexer: v.FEE_INDEXER === "on",
    quotes: signerKey !== undefined,
    prizes: v.PRIZE_DISTRIBUTOR_ADDRESS !== undefined,
  };
  if (!uses.verifier && !uses.indexer && !uses.quotes && !uses.prizes) {
    if (payoutKey !== undefined) fail("PAYOUT_SIGNER_PRIVATE_KEY", "is used only with CHAIN_VERIFIER=rpc");
    return { ...CHAIN_OFF, chainVerifier };
  }
  requireChainSettings(v, uses, payoutKey, acceptedChainIds);
  const contract = v.BETTING_CONTRACT_ADDRESS ?? null;
  const addresses = feeAddresses ?? (contract ? [contract] : []);
  if (uses.indexer && addresses.length === 0) {
    fail("FEE_CONTRACT_ADDRESSES", "is required when FEE_INDEXER=on and BETTING_CONTRACT_ADDRESS is unset");
  }
  return {
    chainVerifier,
    chain: chainOf(v),
    betIndexer: uses.verifier
      ? { fromBlock: BigInt(v.BET_INDEXER_FROM_BLOCK), blockRange: v.BET_INDEXER_BLOCK_RANGE }
      : null,
    feeIndexer: uses.indexer
      ? {
          fromBlock: BigInt(v.FEE_INDEXER_FROM_BLOCK),
          blockRange: v.FEE_INDEXER_BLOCK_RANGE,
          addresses: [...new Set(addresses)].sort(),
          event: feeEvent,
        }
      : null,
    quotes: signerKey !== undefined ? { ...signerOf(signerKey), ttlSeconds: v.QUOTE_TTL_SECONDS } : null,
    payouts:
      payoutKey !== undefined ? { ...signerOf(payoutKey), ttlSeconds: v.PAYOUT_VOUCHER_TTL_SECONDS } : null,
    prizeDistributor: v.PRIZE_DISTRIBUTOR_ADDRESS
      ? {
          contract: v.PRIZE_DISTRIBUTOR_ADDRESS,
          fromBlock: BigInt(v.PRIZE_INDEXER_FROM_BLOCK),
          blockRange: v.PRIZE_INDEXER_BLOCK_RANGE,
        }
      : null,
  };
}

const CHAIN_OFF: Omit<ChainSettings, "chainVerifier"> = {
  chain: null,
  betIndexer: null,
  feeIndexer: null,
  quotes: null,
  payouts: null,
  prizeDistributor: null,
};

function chainOf(v: EnvValues): ChainConfig {
  return {
    rpcUrl: v.CHAIN_RPC_URL ?? null,
    chainId: v.CHAIN_ID ?? 0,
    contract: v.BETTING_CONTRACT_ADDRESS ?? null,
    usdc: v.USDC_ADDRESS ?? null,
    confirmations: v.CHAIN_CONFIRMATIONS,
    finality: v.CHAIN_FINALITY,
    pollMs: v.CHAIN_POLL_MS,
  };
}

/** The odds and payout signer keys, each a usable key, and not the same key. */
function signerKeys(v: EnvValues, production: boolean) {
  const signerKey = v.ODDS_SIGNER_PRIVATE_KEY;
  if (signerKey !== undefined) {
    const problem = signerKeyProblem(signerKey, production);
    if (problem) fail("ODDS_SIGNER_PRIVATE_KEY", problem);
  }
  const payoutKey = v.PAYOUT_SIGNER_PRIVATE_KEY;
  if (payoutKey !== undefined) {
    const problem = signerKeyProblem(payoutKey, production);
    if (problem) fail("PAYOUT_SIGNER_PRIVATE_KEY", problem);
    if (signerKey !== undefined && BigInt(payoutKey) === BigInt(signerKey)) {
      fail("PAYOUT_SIGNER_PRIVATE_KEY", "must be a key of its own, not ODDS_SIGNER_PRIVATE_KEY");
    }
  }
  return { signerKey, payoutKey };
}

/** A signer key in lower case with its checksummed address (published at GET /api/chain/info). */
function signerOf(key: string): { signerKey: Hex; signer: Address } {
  return { signerKey: key.toLowerCase() as Hex, signer: getAddress(privateKeyToAddress(key as Hex)) };
}

/** FEE_CONTRACT_ADDRESSES in lower case; undefined when unset. */
function feeAddressesOf(v: EnvValues): `0x${string}`[] | undefined {
  const feeAddresses = v.FEE_CONTRACT_ADDRESSES?.split(",").map((a) => a.trim());
  for (const a of feeAddresses ?? []) {
    if (!isAddress(a)) {
      fail("FEE_CONTRACT_ADDRESSES", `must be comma-separated 0x addresses, got ${quote(a)}`);
    }
  }
  return feeAddresses?.map((a) => a.toLowerCase() as `0x${string}`);
}

function feeEventOf(v: EnvValues): FeeEvent {
  const feeEvent = parseFeeEvent(
    v.FEE_EVENT_SIGNATURE ?? DEFAULT_FEE_EVENT,
    v.FEE_EVENT_AMOUNT_ARG,
    v.FEE_TOKEN_DECIMALS,
  );
  if ("problem" in feeEvent) fail(feeEvent.variable, feeEvent.problem);
  return feeEvent;
}

/** What the chain features in use require of the other variables. */
function requireChainSettings(
  v: EnvValues,
  uses: { verifier: boolean; indexer: boolean; quotes: boolean; prizes: boolean },
  payoutKey: string | undefined,
  acceptedChainIds: number[],
): void {
  const { verifier, indexer, quotes, prizes } = uses;
  const required =
    "is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on, ODDS_SIGNER_PRIVATE_KEY or PRIZE_DISTRIBUTOR_ADDRESS is set";
  if (v.CHAIN_ID === undefined) fail("CHAIN_ID", required);
  if ((verifier || indexer || prizes) && v.CHAIN_RPC_URL === undefined) {
    fail(
      "CHAIN_RPC_URL",
      "is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on or PRIZE_DISTRIBUTOR_ADDRESS is set",
    );
  }
  if ((verifier || quotes) && v.BETTING_CONTRACT_ADDRESS === undefined) {
    fail("BETTING_CONTRACT_ADDRESS", "is required when CHAIN_VERIFIER=rpc or ODDS_SIGNER_PRIVATE_KEY is set");
  }
  if (verifier && !quotes) {
    fail("ODDS_SIGNER_PRIVATE_KEY", "is required when CHAIN_VERIFIER=rpc (bets count only at quoted odds)");
  }
  if (verifier && payoutKey === undefined) {
    fail("PAYOUT_SIGNER_PRIVATE_KEY", "is required when CHAIN_VERIFIER=rpc (the chain pays winnings)");
  }
  if (!verifier && payoutKey !== undefined) {
    fail("PAYOUT_SIGNER_PRIVATE_KEY", "is used only with CHAIN_VERIFIER=rpc");
  }
  if ((verifier || quotes) && !acceptedChainIds.includes(v.CHAIN_ID)) {
    const ids = acceptedChainIds.join(",");
    fail("CHAIN_ID", `must be one of SIWE_CHAIN_IDS (${ids}) so bets on it can be reported`);
  }
}

/** Parses and validates the environment. Throws ConfigError (one line) on the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const v = parseEnv(env);
  const production = v.NODE_ENV === "production";
  const seasonError = validateSeason(v.CHAMPIONS_SEASON_START_ISO, v.CHAMPIONS_WEEK_ONE_START_ISO);
  if (seasonError) fail("CHAMPIONS_WEEK_ONE_START_ISO", seasonError);
  const protocolIncentiveMicro = incentiveOf(v);
  const siweDomains = domainList(v);
  const siweChainIds = chainIdsOf(v);
  const oidc = oidcOf(v);
  const appOrigins = appOriginsOf(v);
  const testClock = v.TEST_CLOCK === "1";
  if (testClock && production) fail("TEST_CLOCK", "must not be enabled in production");
  return {
    env: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL ?? null,
    dataDir: v.DATA_DIR,
    databasePoolSize: v.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: v.DB_STATEMENT_TIMEOUT_MS,
    databaseBulkStatementTimeoutMs: v.DB_BULK_STATEMENT_TIMEOUT_MS,
    databaseConnectTimeoutMs: v.DB_CONNECT_TIMEOUT_MS,
    redisUrl: v.REDIS_URL ?? null,
    redisCommandTimeoutMs: v.REDIS_COMMAND_TIMEOUT_MS,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    streamMaxClients: v.STREAM_MAX_CLIENTS,
    streamPingMs: v.STREAM_PING_MS,
    streamPollMs: v.STREAM_POLL_MS,
    seasonStart: v.CHAMPIONS_SEASON_START_ISO,
    weekOneStart: v.CHAMPIONS_WEEK_ONE_START_ISO,
    finalizeSecret: v.FINALIZE_SECRET,
    adminToken: v.ADMIN_TOKEN,
    jwtSecret: v.JWT_SECRET,
    protocolIncentiveMicro,
    siweDomains,
    siweChainIds,
    oidc,
    appOrigins,
    publicUrl: v.PUBLIC_URL ?? null,
    testClock,
    rateLimits: {
      readPerMin: v.RATE_LIMIT_READ_PER_MIN,
      writePerMin: v.RATE_LIMIT_WRITE_PER_MIN,
      authPerMin: v.RATE_LIMIT_AUTH_PER_MIN,
      finalizePerMin: v.RATE_LIMIT_FINALIZE_PER_MIN,
    },
    welcomeCredits: v.WELCOME_CREDITS,
    dailyCredits: v.DAILY_CREDITS,
    spPerUsdc: v.SP_PER_USDC,
    referralRewardSp: v.REFERRAL_REWARD_SP,
    rafflePrizeSp: v.RAFFLE_PRIZE_SP,
    ...chainSettings(v, production, siweChainIds),
    rankCache: v.RANK_CACHE === "on",
    trustProxy: trustProxySetting(v.TRUST_PROXY),
    logLevel: logLevelOf(v),
    metricsToken: v.METRICS_TOKEN ?? null,
    autoFinalize: v.AUTO_FINALIZE,
    finalizeGraceSeconds: v.FINALIZE_GRACE_SECONDS,
    indexerMaxLagSeconds: v.INDEXER_MAX_LAG_SECONDS,
  };
}

function incentiveOf(v: EnvValues): bigint {
  try {
    return parseUsdc(v.PROTOCOL_INCENTIVE_USDC);
  } catch {
    return fail(
      "PROTOCOL_INCENTIVE_USDC",
      `must be a non-negative USDC amount with at most 6 decimals, got ${quote(v.PROTOCOL_INCENTIVE_USDC)}`,
    );
  }
}

function chainIdsOf(v: EnvValues): number[] {
  const ids = v.SIWE_CHAIN_IDS.split(",").map((s) => s.trim());
  // At most MAX_CHAIN_ID (10 digits): what a chain_id column holds (a larger one passed here and failed at the
  // first v2 bet's insert, a 500).
  if (ids.some((s) => !/^[1-9]\d{0,9}$/.test(s) || Number(s) > MAX_CHAIN_ID)) {
    fail(
      "SIWE_CHAIN_IDS",
      `must be a comma-separated list of chain ids from 1 to ${MAX_CHAIN_ID}, got ${quote(v.SIWE_CHAIN_IDS)}`,
    );
  }
  return ids.map(Number);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** One of pino's levels (another failed later, inside Fastify, with a message naming no variable). */
function logLevelOf(v: EnvValues): string {
  if (v.LOG_LEVEL === undefined) return v.NODE_ENV === "test" ? "silent" : "info";
  if (!LOG_LEVELS.includes(v.LOG_LEVEL)) {
    fail("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}, got ${quote(v.LOG_LEVEL)}`);
  }
  return v.LOG_LEVEL;
}

/** Identity sign-in: the issuer, audience and keys together, or none; an authorization URL needs them. */
function oidcOf(v: EnvValues): Config["oidc"] {
  const { OIDC_ISSUER: issuer, OIDC_AUDIENCE: audience, OIDC_JWKS_URL: jwksUrl } = v;
  const parts = [issuer, audience, jwksUrl].filter((x) => x !== undefined).length;
  if (parts !== 0 && parts !== 3) {
    fail("OIDC_ISSUER", "OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL must be set together");
  }
  const authorizationUrl = v.OIDC_AUTHORIZATION_URL ?? null;
  if (authorizationUrl !== null && parts === 0) {
    fail("OIDC_AUTHORIZATION_URL", "needs OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL");
  }
  return issuer && audience && jwksUrl ? { issuer, audience, jwksUrl, authorizationUrl } : null;
}

/** An IPv4 or IPv6 address, optionally with a prefix length its family allows (`10.0.0.0/8`, `::1/128`). */
function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function trustProxySetting(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  const bad = raw.split(",").find((a) => !isAddressOrCidr(a.trim()));
  if (bad !== undefined) fail("TRUST_PROXY", `must be true, false or addresses/CIDRs, got ${quote(bad)}`);
  return raw;
}

function appOriginsOf(v: EnvValues): string[] | null {
  const appOrigins = v.APP_ORIGINS ? v.APP_ORIGINS.split(",").map((s) => s.trim()) : null;
  for (const o of appOrigins ?? []) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(o);
    } catch {
      // reported below
    }
    if (!parsed || parsed.origin !== o)
      fail("APP_ORIGINS", `${quote(o)} is not an origin like https://app.example.com`);
  }
  return appOrigins;
}
