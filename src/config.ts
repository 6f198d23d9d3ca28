/**
 * Environment parsed and validated once at start-up. `loadConfig` returns a typed Config or throws a
 * ConfigError whose message is one line naming the variable and why it was refused.
 */
import { type Address, getAddress, type Hex, isAddress } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { DEFAULT_FEE_EVENT, type FeeEvent, parseFeeEvent } from "./chain/fee-event.js";
import { signerKeyProblem } from "./chain/signer-key.js";
import { validateSeason } from "./competition/calendar.js";
import { writtenInRepository } from "./shared/known-secrets.js";
import { parseUsdc } from "./shared/money.js";

export class ConfigError extends Error {}

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
  /** Serve GET /bench/ceiling, the benchmark's static-JSON ceiling (never needed in production). */
  benchCeiling: boolean;
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

/** Development defaults; production refuses to start with any of these secrets. */
export const DEV_DEFAULTS = {
  seasonStart: "2026-11-02T00:00:00.000Z",
  weekOneStart: "2026-11-10T00:00:00.000Z",
  finalizeSecret: "dev-finalize-secret",
  adminToken: "dev-admin-token",
  jwtSecret: "dev-jwt-secret-change-me-0123456789abcdef",
} as const;

type Env = Record<string, string | undefined>;

function fail(name: string, why: string): never {
  throw new ConfigError(`${name}: ${why}`);
}

/** A raw value quoted for a message: JSON escapes keep line breaks from splitting the one-line error. */
const quote = (raw: string) => JSON.stringify(raw);

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return dflt;
  if (!/^\d+$/.test(raw)) fail(name, `must be a whole number, got ${quote(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) fail(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function onOff(env: Env, name: string, dflt: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return dflt;
  if (raw !== "on" && raw !== "off") fail(name, `must be on or off, got "${raw}"`);
  return raw === "on";
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return dflt;
  if (["true", "on", "1"].includes(raw)) return true;
  if (["false", "off", "0"].includes(raw)) return false;
  fail(name, `must be true or false, got ${quote(raw)}`);
}

function isoInstant(env: Env, name: string, dflt: string | undefined): Date {
  const raw = str(env, name) ?? dflt;
  if (raw === undefined) fail(name, "is required in production");
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) {
    fail(name, `must be an ISO 8601 timestamp with a time zone, got ${quote(raw)}`);
  }
  const d = new Date(raw);
  // Date rolls impossible days over (2026-02-31 → 2026-03-03); the written day must exist in its month.
  const [y, m, day] = raw.slice(0, 10).split("-").map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (Number.isNaN(d.getTime()) || day > daysInMonth) fail(name, `is not a valid instant: ${quote(raw)}`);
  return d;
}

function secret(env: Env, name: string, dflt: string, production: boolean, minLength = 1): string {
  const raw = str(env, name);
  if (raw === undefined) {
    if (production) fail(name, "is required in production");
    return dflt;
  }
  if (production && raw === dflt) fail(name, "must not be the development default in production");
  if (Buffer.byteLength(raw) < minLength) fail(name, `must be at least ${minLength} bytes`);
  refuseWrittenInRepository(name, raw, production);
  return raw;
}

/** An optional secret: unset → null; set → at least `minLength` bytes. */
function optionalSecret(env: Env, name: string, minLength: number, production: boolean): string | null {
  const raw = str(env, name);
  if (raw === undefined) return null;
  if (Buffer.byteLength(raw) < minLength) fail(name, `must be at least ${minLength} bytes`);
  refuseWrittenInRepository(name, raw, production);
  return raw;
}

/** Production refuses a secret anyone can read in this repository (tests, docs and examples are public). */
function refuseWrittenInRepository(name: string, raw: string, production: boolean): void {
  const written = production ? writtenInRepository(raw) : null;
  if (written)
    fail(name, `is written in this repository (${written}): anyone can read it; refused in production`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = str(env, name);
  if (raw === undefined) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    fail(name, "is not a valid URL");
  }
  if (!protocols.includes(u.protocol)) fail(name, `must use ${protocols.join(" or ")}`);
  return raw;
}

/**
 * SIWE_DOMAINS (comma-separated `host[:port]`), or the older single SIWE_DOMAIN; both at once are refused (which
 * one wins would be a guess). Null when neither is set: the defaults follow the port listened on.
 */
function domainList(env: Env): string[] | null {
  const many = str(env, "SIWE_DOMAINS");
  const one = str(env, "SIWE_DOMAIN");
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

export const DEFAULT_CONFIRMATIONS = 3;
export const DEFAULT_QUOTE_TTL_SECONDS = 60;

function address(env: Env, name: string): `0x${string}` | null {
  const raw = str(env, name);
  if (raw === undefined) return null;
  if (!isAddress(raw)) fail(name, `must be a 0x address (checksummed when mixed-case), got ${quote(raw)}`);
  return raw.toLowerCase() as `0x${string}`;
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
 * indexer, quotes or the prize distributor are on, and null otherwise. Bets of a verified or quoted chain must be reportable (SIWE_CHAIN_IDS).
 */
function chainSettings(env: Env, production: boolean, acceptedChainIds: number[]): ChainSettings {
  const chainVerifier = str(env, "CHAIN_VERIFIER") ?? "none";
  if (chainVerifier !== "none" && chainVerifier !== "trust" && chainVerifier !== "rpc") {
    fail("CHAIN_VERIFIER", `must be none, trust or rpc, got "${chainVerifier}"`);
  }
  if (chainVerifier === "trust" && production)
    fail("CHAIN_VERIFIER", "trust is a development verifier, refused in production");
  const verifier = chainVerifier === "rpc";
  const indexer = onOff(env, "FEE_INDEXER", false);

  const rpcUrl = url(env, "CHAIN_RPC_URL", ["http:", "https:"]);
  const contract = address(env, "BETTING_CONTRACT_ADDRESS");
  const usdc = address(env, "USDC_ADDRESS");
  const chainId = int(env, "CHAIN_ID", 0, 1, Number.MAX_SAFE_INTEGER);
  const confirmations = int(env, "CHAIN_CONFIRMATIONS", DEFAULT_CONFIRMATIONS, 1, 10_000);
  const finality = str(env, "CHAIN_FINALITY") ?? "finalized";
  if (finality !== "finalized" && finality !== "confirmations") {
    fail("CHAIN_FINALITY", `must be finalized or confirmations, got ${quote(finality)}`);
  }
  const pollMs = int(env, "CHAIN_POLL_MS", 5000, 100, 3_600_000);

  const signerKey = str(env, "ODDS_SIGNER_PRIVATE_KEY");
  if (signerKey !== undefined) {
    const problem = signerKeyProblem(signerKey, production);
    if (problem) fail("ODDS_SIGNER_PRIVATE_KEY", problem);
  }
  const ttlSeconds = int(env, "QUOTE_TTL_SECONDS", DEFAULT_QUOTE_TTL_SECONDS, 5, 3600);
  const quotesOn = signerKey !== undefined;
  const payoutKey = str(env, "PAYOUT_SIGNER_PRIVATE_KEY");
  if (payoutKey !== undefined) {
    const problem = signerKeyProblem(payoutKey, production);
    if (problem) fail("PAYOUT_SIGNER_PRIVATE_KEY", problem);
    if (signerKey !== undefined && BigInt(payoutKey) === BigInt(signerKey)) {
      fail("PAYOUT_SIGNER_PRIVATE_KEY", "must be a key of its own, not ODDS_SIGNER_PRIVATE_KEY");
    }
  }
  const voucherTtl = int(env, "PAYOUT_VOUCHER_TTL_SECONDS", 86_400, 60, 30 * 86_400);

  const feeAddressesRaw = str(env, "FEE_CONTRACT_ADDRESSES");
  const feeAddresses = feeAddressesRaw?.split(",").map((a) => a.trim());
  for (const a of feeAddresses ?? []) {
    if (!isAddress(a)) {
      fail("FEE_CONTRACT_ADDRESSES", `must be comma-separated 0x addresses, got ${quote(a)}`);
    }
  }
  const feeEvent = parseFeeEvent(
    str(env, "FEE_EVENT_SIGNATURE") ?? DEFAULT_FEE_EVENT,
    str(env, "FEE_EVENT_AMOUNT_ARG") ?? "amount",
    int(env, "FEE_TOKEN_DECIMALS", 6, 0, 36),
  );
  if ("problem" in feeEvent) fail(feeEvent.variable, feeEvent.problem);
  const feeFrom = BigInt(int(env, "FEE_INDEXER_FROM_BLOCK", 0, 0, Number.MAX_SAFE_INTEGER));
  const feeRange = int(env, "FEE_INDEXER_BLOCK_RANGE", 2000, 1, 1_000_000);
  const betFrom = BigInt(int(env, "BET_INDEXER_FROM_BLOCK", 0, 0, Number.MAX_SAFE_INTEGER));
  const betRange = int(env, "BET_INDEXER_BLOCK_RANGE", 2000, 1, 1_000_000);
  const distributor = address(env, "PRIZE_DISTRIBUTOR_ADDRESS");
  const prizeFrom = BigInt(int(env, "PRIZE_INDEXER_FROM_BLOCK", 0, 0, Number.MAX_SAFE_INTEGER));
  const prizeRange = int(env, "PRIZE_INDEXER_BLOCK_RANGE", 2000, 1, 1_000_000);
  const prizesOn = distributor !== null;

  const off: ChainSettings = {
    chainVerifier,
    chain: null,
    betIndexer: null,
    feeIndexer: null,
    quotes: null,
    payouts: null,
    prizeDistributor: null,
  };
  if (!verifier && !indexer && !quotesOn && !prizesOn) {
    if (payoutKey !== undefined) fail("PAYOUT_SIGNER_PRIVATE_KEY", "is used only with CHAIN_VERIFIER=rpc");
    return off;
  }
  const uses =
    "is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on, ODDS_SIGNER_PRIVATE_KEY or PRIZE_DISTRIBUTOR_ADDRESS is set";
  if (str(env, "CHAIN_ID") === undefined) fail("CHAIN_ID", uses);
  if ((verifier || indexer || prizesOn) && rpcUrl === null) {
    fail(
      "CHAIN_RPC_URL",
      "is required when CHAIN_VERIFIER=rpc, FEE_INDEXER=on or PRIZE_DISTRIBUTOR_ADDRESS is set",
    );
  }
  if ((verifier || quotesOn) && contract === null) {
    fail("BETTING_CONTRACT_ADDRESS", "is required when CHAIN_VERIFIER=rpc or ODDS_SIGNER_PRIVATE_KEY is set");
  }
  if (verifier && !quotesOn) {
    fail("ODDS_SIGNER_PRIVATE_KEY", "is required when CHAIN_VERIFIER=rpc (bets count only at quoted odds)");
  }
  if (verifier && payoutKey === undefined) {
    fail("PAYOUT_SIGNER_PRIVATE_KEY", "is required when CHAIN_VERIFIER=rpc (the chain pays winnings)");
  }
  if (!verifier && payoutKey !== undefined) {
    fail("PAYOUT_SIGNER_PRIVATE_KEY", "is used only with CHAIN_VERIFIER=rpc");
  }
  if ((verifier || quotesOn) && !acceptedChainIds.includes(chainId)) {
    const ids = acceptedChainIds.join(",");
    fail("CHAIN_ID", `must be one of SIWE_CHAIN_IDS (${ids}) so bets on it can be reported`);
  }
  const addresses =
    feeAddresses?.map((a) => a.toLowerCase() as `0x${string}`) ?? (contract ? [contract] : []);
  if (indexer && addresses.length === 0) {
    fail("FEE_CONTRACT_ADDRESSES", "is required when FEE_INDEXER=on and BETTING_CONTRACT_ADDRESS is unset");
  }
  return {
    chainVerifier,
    chain: { rpcUrl, chainId, contract, usdc, confirmations, finality, pollMs },
    betIndexer: verifier ? { fromBlock: betFrom, blockRange: betRange } : null,
    feeIndexer: indexer
      ? {
          fromBlock: feeFrom,
          blockRange: feeRange,
          addresses: [...new Set(addresses)].sort(),
          event: feeEvent,
        }
      : null,
    quotes: quotesOn
      ? {
          signerKey: signerKey.toLowerCase() as Hex,
          signer: getAddress(privateKeyToAddress(signerKey as Hex)),
          ttlSeconds,
        }
      : null,
    payouts:
      payoutKey !== undefined
        ? {
            signerKey: payoutKey.toLowerCase() as Hex,
            signer: getAddress(privateKeyToAddress(payoutKey as Hex)),
            ttlSeconds: voucherTtl,
          }
        : null,
    prizeDistributor: distributor
      ? { contract: distributor, fromBlock: prizeFrom, blockRange: prizeRange }
      : null,
  };
}

/** Parses and validates the environment. Throws ConfigError (one line) on the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = str(env, "NODE_ENV") ?? "development";
  if (!["development", "production", "test"].includes(nodeEnv)) {
    fail("NODE_ENV", `must be development, production or test, got ${quote(nodeEnv)}`);
  }
  const production = nodeEnv === "production";

  const port = int(env, "PORT", 3000, 0, 65535);
  const host = str(env, "HOST") ?? "127.0.0.1";
  const databaseUrl = url(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const redisUrl = url(env, "REDIS_URL", ["redis:", "rediss:"]);

  const seasonStart = isoInstant(
    env,
    "CHAMPIONS_SEASON_START_ISO",
    production ? undefined : DEV_DEFAULTS.seasonStart,
  );
  const weekOneStart = isoInstant(
    env,
    "CHAMPIONS_WEEK_ONE_START_ISO",
    production ? undefined : DEV_DEFAULTS.weekOneStart,
  );
  const seasonError = validateSeason(seasonStart, weekOneStart);
  if (seasonError) fail("CHAMPIONS_WEEK_ONE_START_ISO", seasonError);

  const finalizeSecret = secret(env, "FINALIZE_SECRET", DEV_DEFAULTS.finalizeSecret, production, 8);
  const adminToken = secret(env, "ADMIN_TOKEN", DEV_DEFAULTS.adminToken, production, 8);
  const jwtSecret = secret(env, "JWT_SECRET", DEV_DEFAULTS.jwtSecret, production, 32);

  const incentiveRaw = str(env, "PROTOCOL_INCENTIVE_USDC") ?? "0";
  let protocolIncentiveMicro: bigint;
  try {
    protocolIncentiveMicro = parseUsdc(incentiveRaw);
  } catch {
    fail(
      "PROTOCOL_INCENTIVE_USDC",
      `must be a non-negative USDC amount with at most 6 decimals, got ${quote(incentiveRaw)}`,
    );
  }

  const siweDomains = domainList(env);
  const chainRaw = str(env, "SIWE_CHAIN_IDS") ?? "1,8453";
  const siweChainIds = chainRaw.split(",").map((s) => s.trim());
  if (siweChainIds.some((s) => !/^[1-9]\d{0,15}$/.test(s))) {
    fail("SIWE_CHAIN_IDS", `must be a comma-separated list of positive chain ids, got ${quote(chainRaw)}`);
  }

  const issuer = str(env, "OIDC_ISSUER");
  const audience = str(env, "OIDC_AUDIENCE");
  const jwksUrl = url(env, "OIDC_JWKS_URL", ["http:", "https:"]);
  const oidcParts = [issuer, audience, jwksUrl].filter((v) => v != null).length;
  if (oidcParts !== 0 && oidcParts !== 3) {
    fail("OIDC_ISSUER", "OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL must be set together");
  }
  const authorizationUrl = url(env, "OIDC_AUTHORIZATION_URL", ["http:", "https:"]);
  if (authorizationUrl !== null && oidcParts === 0) {
    fail("OIDC_AUTHORIZATION_URL", "needs OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL");
  }

  const publicUrl = url(env, "PUBLIC_URL", ["http:", "https:"]);
  const appOriginsRaw = str(env, "APP_ORIGINS");
  const appOrigins = appOriginsRaw ? appOriginsRaw.split(",").map((s) => s.trim()) : null;
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

  const testClock = str(env, "TEST_CLOCK") === "1";
  if (testClock && production) fail("TEST_CLOCK", "must not be enabled in production");

  const chain = chainSettings(env, production, siweChainIds.map(Number));

  return {
    env: nodeEnv as Config["env"],
    port,
    host,
    databaseUrl,
    dataDir: str(env, "DATA_DIR") ?? "./data",
    databasePoolSize: int(env, "DATABASE_POOL_SIZE", 20, 1, 1000),
    databaseStatementTimeoutMs: int(env, "DB_STATEMENT_TIMEOUT_MS", 5000, 100, 600_000),
    databaseBulkStatementTimeoutMs: int(env, "DB_BULK_STATEMENT_TIMEOUT_MS", 120_000, 100, 3_600_000),
    databaseConnectTimeoutMs: int(env, "DB_CONNECT_TIMEOUT_MS", 5000, 100, 600_000),
    redisUrl,
    redisCommandTimeoutMs: int(env, "REDIS_COMMAND_TIMEOUT_MS", 1000, 50, 60_000),
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
    streamMaxClients: int(env, "STREAM_MAX_CLIENTS", 10_000, 0, 1_000_000),
    streamPingMs: int(env, "STREAM_PING_MS", 15_000, 10, 3_600_000),
    streamPollMs: int(env, "STREAM_POLL_MS", 1000, 10, 3_600_000),
    seasonStart,
    weekOneStart,
    finalizeSecret,
    adminToken,
    jwtSecret,
    protocolIncentiveMicro,
    siweDomains,
    siweChainIds: siweChainIds.map(Number),
    oidc: issuer && audience && jwksUrl ? { issuer, audience, jwksUrl, authorizationUrl } : null,
    appOrigins,
    publicUrl,
    testClock,
    rateLimits: {
      readPerMin: int(env, "RATE_LIMIT_READ_PER_MIN", 300, 1, 1_000_000_000),
      writePerMin: int(env, "RATE_LIMIT_WRITE_PER_MIN", 60, 1, 1_000_000_000),
      authPerMin: int(env, "RATE_LIMIT_AUTH_PER_MIN", 20, 1, 1_000_000_000),
      finalizePerMin: int(env, "RATE_LIMIT_FINALIZE_PER_MIN", 10, 1, 1_000_000_000),
    },
    welcomeCredits: int(env, "WELCOME_CREDITS", 1000, 0, 1_000_000_000),
    dailyCredits: int(env, "DAILY_CREDITS", 1000, 0, 1_000_000_000),
    spPerUsdc: int(env, "SP_PER_USDC", 100, 0, 1_000_000),
    referralRewardSp: int(env, "REFERRAL_REWARD_SP", 500, 0, 1_000_000_000),
    rafflePrizeSp: int(env, "RAFFLE_PRIZE_SP", 1000, 0, 1_000_000_000),
    ...chain,
    rankCache: onOff(env, "RANK_CACHE", true),
    benchCeiling: onOff(env, "BENCH_CEILING", false),
    logLevel: str(env, "LOG_LEVEL") ?? (nodeEnv === "test" ? "silent" : "info"),
    metricsToken: optionalSecret(env, "METRICS_TOKEN", 16, production),
    autoFinalize: bool(env, "AUTO_FINALIZE", true),
    finalizeGraceSeconds: int(env, "FINALIZE_GRACE_SECONDS", 300, 0, 7 * 24 * 3600),
    indexerMaxLagSeconds: int(env, "INDEXER_MAX_LAG_SECONDS", 300, 1, 30 * 24 * 3600),
  };
}
