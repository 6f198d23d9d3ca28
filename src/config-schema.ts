/**
 * Every environment variable the service reads, declared once as a TypeBox schema: its type, bounds, default and
 * meaning. `parseEnv` reads the environment by this schema (one generic reader per kind, one-line errors naming the
 * variable); config.ts then applies the rules between variables and builds the Config. The README's
 * configuration table is checked against it (config-schema.test.ts).
 *
 * Kinds (`x-env`): int (a whole number within bounds), on-off, boolean (true/false, on/off, 1/0), one-of (a
 * listed word), text, url (of the listed protocols), instant (ISO 8601 with a zone), secret (production refuses
 * it unset, equal to the development default, or written in this repository), address (a 0x address, stored
 * lower-case). A variable without a default is optional: unset (or empty) reads as undefined.
 */

import { type Static, type TSchema, Type } from "typebox";
import { isAddress } from "viem";
import { writtenInRepository } from "./shared/known-secrets.js";
import { MAX_CHAIN_ID } from "./shared/schema-types.js";

export class ConfigError extends Error {}

/** Development defaults; production refuses to start with any of these secrets. */
export const DEV_DEFAULTS = {
  seasonStart: "2026-11-02T00:00:00.000Z",
  weekOneStart: "2026-11-10T00:00:00.000Z",
  finalizeSecret: "dev-finalize-secret",
  adminToken: "dev-admin-token",
  jwtSecret: "dev-jwt-secret-change-me-0123456789abcdef",
} as const;

export const DEFAULT_CONFIRMATIONS = 3;
export const DEFAULT_QUOTE_TTL_SECONDS = 60;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const int = (description: string, dflt: number | undefined, minimum: number, maximum: number) =>
  Type.Integer({ "x-env": "int", description, default: dflt, minimum, maximum });
const onOff = (description: string, dflt: "on" | "off") =>
  Type.Union([Type.Literal("on"), Type.Literal("off")], { "x-env": "on-off", description, default: dflt });
const bool = (description: string, dflt: boolean) =>
  Type.Boolean({ "x-env": "boolean", description, default: dflt });
const oneOf = <const T extends readonly [string, ...string[]]>(
  description: string,
  values: T,
  dflt: T[number],
) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { "x-env": "one-of", description, default: dflt, "x-values": values },
    ),
  );
const text = (description: string, dflt?: string) =>
  dflt === undefined
    ? Type.Optional(Type.String({ "x-env": "text", description }))
    : Type.String({ "x-env": "text", description, default: dflt });
const url = (description: string, protocols: string[]) =>
  Type.Optional(Type.String({ "x-env": "url", description, format: "uri", "x-protocols": protocols }));
const instant = (description: string, devDefault: string) =>
  Type.Unsafe<Date>(
    Type.String({ "x-env": "instant", description, format: "date-time", "x-dev-default": devDefault }),
  );
const secret = (description: string, devDefault: string | undefined, minLength: number) =>
  devDefault === undefined
    ? Type.Optional(Type.String({ "x-env": "secret", description, minLength }))
    : Type.String({ "x-env": "secret", description, minLength, "x-dev-default": devDefault });
const address = (description: string) =>
  Type.Optional(
    Type.Unsafe<`0x${string}`>(
      Type.String({ "x-env": "address", description, pattern: "^0x[0-9a-fA-F]{40}$" }),
    ),
  );

/** The environment, in the order variables are read (the first bad one is reported). */
export const EnvSchema = Type.Object({
  NODE_ENV: oneOf("development, production or test", ["development", "production", "test"], "development"),
  PORT: int("TCP port to listen on (0: any free port)", 3000, 0, 65535),
  HOST: text("address to listen on", "127.0.0.1"),
  DATABASE_URL: url("PostgreSQL; unset: the embedded database in DATA_DIR", ["postgres:", "postgresql:"]),
  REDIS_URL: url("Redis for rate limits shared by instances; unset: in memory", ["redis:", "rediss:"]),
  CHAMPIONS_SEASON_START_ISO: instant("the opening week's start", DEV_DEFAULTS.seasonStart),
  CHAMPIONS_WEEK_ONE_START_ISO: instant("week one's start (a Tuesday 00:00 UTC)", DEV_DEFAULTS.weekOneStart),
  FINALIZE_SECRET: secret("bearer of POST /api/competition/finalize", DEV_DEFAULTS.finalizeSecret, 8),
  ADMIN_TOKEN: secret("bearer of /api/admin/*", DEV_DEFAULTS.adminToken, 8),
  JWT_SECRET: secret("session signing key", DEV_DEFAULTS.jwtSecret, 32),
  PROTOCOL_INCENTIVE_USDC: text("weekly subsidy added to the prize pool, USDC (6 decimals at most)", "0"),
  SIWE_DOMAINS: text("comma-separated host[:port] accepted in sign-in messages"),
  SIWE_DOMAIN: text("the older single form of SIWE_DOMAINS"),
  SIWE_CHAIN_IDS: text("comma-separated chain ids accepted in sign-in messages", "1,8453"),
  OIDC_ISSUER: text("identity sign-in: the issuer (with OIDC_AUDIENCE and OIDC_JWKS_URL)"),
  OIDC_AUDIENCE: text("identity sign-in: the audience of ID tokens"),
  OIDC_JWKS_URL: url("identity sign-in: the issuer's keys", ["http:", "https:"]),
  OIDC_AUTHORIZATION_URL: url("where a browser starts the issuer's sign-in", ["http:", "https:"]),
  PUBLIC_URL: url("where players open the service", ["http:", "https:"]),
  APP_ORIGINS: text("comma-separated origins allowed by CORS and sign-in"),
  TEST_CLOCK: text("1: PUT /api/admin/clock may pin the clock (refused in production)"),
  CHAIN_VERIFIER: oneOf(
    "how version-2 bets are confirmed: none, trust or rpc",
    ["none", "trust", "rpc"],
    "none",
  ),
  FEE_INDEXER: onOff("read protocol fees from the chain", "off"),
  CHAIN_RPC_URL: url("JSON-RPC endpoint of the chain", ["http:", "https:"]),
  BETTING_CONTRACT_ADDRESS: address("the betting contract"),
  USDC_ADDRESS: address("the USDC token bets are staked in (unset: read from the contract)"),
  CHAIN_ID: int("the chain of bets, quotes and fees", undefined, 1, MAX_CHAIN_ID),
  CHAIN_CONFIRMATIONS: int("confirmations before a block counts", DEFAULT_CONFIRMATIONS, 1, 10_000),
  CHAIN_FINALITY: oneOf("finalized or confirmations", ["finalized", "confirmations"], "finalized"),
  CHAIN_POLL_MS: int("pause between two runs of the chain jobs, ms", 5000, 100, 3_600_000),
  ODDS_SIGNER_PRIVATE_KEY: text("the odds signer of version-2 quotes; unset: no quotes"),
  QUOTE_TTL_SECONDS: int("how long a quote is valid", DEFAULT_QUOTE_TTL_SECONDS, 5, 3600),
  PAYOUT_SIGNER_PRIVATE_KEY: text("the payout signer of version-2 winnings (CHAIN_VERIFIER=rpc)"),
  PAYOUT_VOUCHER_TTL_SECONDS: int("how long a payout voucher can be used", 86_400, 60, 30 * 86_400),
  FEE_CONTRACT_ADDRESSES: text("comma-separated 0x addresses whose fee events are read"),
  FEE_EVENT_SIGNATURE: text("the fee event's Solidity signature"),
  FEE_EVENT_AMOUNT_ARG: text("the fee event's amount argument", "amount"),
  FEE_TOKEN_DECIMALS: int("decimals of the fee token", 6, 0, 36),
  FEE_INDEXER_FROM_BLOCK: int("first block the fee indexer reads", 0, 0, MAX_SAFE),
  FEE_INDEXER_BLOCK_RANGE: int("blocks per fee log query", 2000, 1, 1_000_000),
  BET_INDEXER_FROM_BLOCK: int("first block the bet indexer reads", 0, 0, MAX_SAFE),
  BET_INDEXER_BLOCK_RANGE: int("blocks per bet log query", 2000, 1, 1_000_000),
  PRIZE_DISTRIBUTOR_ADDRESS: address("the Champions prize distributor"),
  PRIZE_INDEXER_FROM_BLOCK: int("first block the PrizeClaimed indexer reads", 0, 0, MAX_SAFE),
  PRIZE_INDEXER_BLOCK_RANGE: int("blocks per PrizeClaimed log query", 2000, 1, 1_000_000),
  DATA_DIR: text("the embedded database's folder", "./data"),
  DATABASE_POOL_SIZE: int("PostgreSQL connections of one instance", 20, 1, 1000),
  DB_STATEMENT_TIMEOUT_MS: int("PostgreSQL: the most one statement may run", 5000, 100, 600_000),
  DB_BULK_STATEMENT_TIMEOUT_MS: int("PostgreSQL: the longest statement of finalize", 120_000, 100, 3_600_000),
  DB_CONNECT_TIMEOUT_MS: int("PostgreSQL: the most a query waits for a connection", 5000, 100, 600_000),
  REDIS_COMMAND_TIMEOUT_MS: int(
    "Redis: the most one command waits (then rate limits fail open)",
    1000,
    50,
    60_000,
  ),
  SHUTDOWN_TIMEOUT_MS: int("how long requests in flight may finish at shutdown", 10_000, 0, 600_000),
  STREAM_MAX_CLIENTS: int("live-stream connections one instance holds (more: 503)", 10_000, 0, 1_000_000),
  STREAM_PING_MS: int("interval of the live stream's ping comment", 15_000, 10, 3_600_000),
  STREAM_POLL_MS: int("how often the stream reader looks at the outbox unwoken", 1000, 10, 3_600_000),
  RATE_LIMIT_READ_PER_MIN: int("reads per minute per client", 300, 1, 1_000_000_000),
  RATE_LIMIT_WRITE_PER_MIN: int("writes per minute per client", 60, 1, 1_000_000_000),
  RATE_LIMIT_AUTH_PER_MIN: int("sign-in attempts per minute per client", 20, 1, 1_000_000_000),
  RATE_LIMIT_FINALIZE_PER_MIN: int("finalize calls per minute per client", 10, 1, 1_000_000_000),
  WELCOME_CREDITS: int("credits of a new player", 1000, 0, 1_000_000_000),
  DAILY_CREDITS: int("credits a player may claim each day", 1000, 0, 1_000_000_000),
  SP_PER_USDC: int("SP per USDC of a version-2 bet", 100, 0, 1_000_000),
  REFERRAL_REWARD_SP: int("SP of a redeemed referral", 500, 0, 1_000_000_000),
  RAFFLE_PRIZE_SP: int("SP of the daily raffle's winner", 1000, 0, 1_000_000_000),
  RANK_CACHE: onOff("serve live ranks from memory (on) or SQL (off)", "on"),
  TRUST_PROXY: text(
    "whom to believe about the client address (x-forwarded-for): false, true, or proxy addresses/CIDRs",
  ),
  LOG_LEVEL: text(
    "pino level: fatal, error, warn, info, debug, trace or silent (default: info; silent under NODE_ENV=test)",
  ),
  METRICS_TOKEN: secret("bearer GET /metrics requires; unset: open", undefined, 16),
  AUTO_FINALIZE: bool("one instance finalizes each ended week by itself", true),
  FINALIZE_GRACE_SECONDS: int(
    "how long after a week's end the automatic finalize waits",
    300,
    0,
    7 * 24 * 3600,
  ),
  INDEXER_MAX_LAG_SECONDS: int("past this lag an indexer makes /readyz degraded", 300, 1, 30 * 24 * 3600),
});

export type Env = Record<string, string | undefined>;
export type EnvValues = Static<typeof EnvSchema>;

export function fail(name: string, why: string): never {
  throw new ConfigError(`${name}: ${why}`);
}

/** A raw value quoted for a message: JSON escapes keep line breaks from splitting the one-line error. */
export const quote = (raw: string) => JSON.stringify(raw);

/** Unset and empty read the same. */
export function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

/** Reads every variable of EnvSchema by its kind; throws ConfigError (one line) on the first bad one. */
export function parseEnv(env: Env): EnvValues {
  const production = str(env, "NODE_ENV") === "production";
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(EnvSchema.properties) as unknown as Array<
    [string, EnvProperty]
  >) {
    out[name] = readVariable(env, name, schema, production);
  }
  return out as EnvValues;
}

type EnvProperty = TSchema & {
  "x-env": string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  "x-values"?: string[];
  "x-protocols"?: string[];
  "x-dev-default"?: string;
};

function readVariable(env: Env, name: string, schema: EnvProperty, production: boolean): unknown {
  const raw = str(env, name);
  switch (schema["x-env"]) {
    case "int":
      return raw === undefined ? schema.default : wholeNumber(name, raw, schema.minimum!, schema.maximum!);
    case "on-off":
      if (raw !== undefined && raw !== "on" && raw !== "off")
        fail(name, `must be on or off, got ${quote(raw)}`);
      return raw ?? schema.default;
    case "boolean":
      return raw === undefined ? schema.default : trueOrFalse(name, raw);
    case "one-of":
      return raw === undefined ? schema.default : listedWord(name, raw, schema["x-values"]!);
    case "url":
      return raw === undefined ? undefined : urlOf(name, raw, schema["x-protocols"]!);
    case "instant":
      return isoInstant(name, raw ?? (production ? undefined : schema["x-dev-default"]));
    case "secret":
      return secretOf(name, raw, schema, production);
    case "address":
      return raw === undefined ? undefined : addressOf(name, raw);
    default:
      return raw ?? schema.default;
  }
}

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) fail(name, `must be a whole number, got ${quote(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) fail(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function trueOrFalse(name: string, raw: string): boolean {
  if (["true", "on", "1"].includes(raw)) return true;
  if (["false", "off", "0"].includes(raw)) return false;
  fail(name, `must be true or false, got ${quote(raw)}`);
}

function listedWord(name: string, raw: string, values: string[]): string {
  if (values.includes(raw)) return raw;
  const listed = `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
  fail(name, `must be ${listed}, got ${quote(raw)}`);
}

function urlOf(name: string, raw: string, protocols: string[]): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    fail(name, "is not a valid URL");
  }
  if (!protocols.includes(u.protocol)) fail(name, `must use ${protocols.join(" or ")}`);
  return raw;
}

function isoInstant(name: string, raw: string | undefined): Date {
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

/** A secret with a development default is required in production; one without (optional) may stay unset. */
function secretOf(name: string, raw: string | undefined, schema: EnvProperty, production: boolean) {
  const devDefault = schema["x-dev-default"];
  if (raw === undefined) {
    if (devDefault !== undefined && production) fail(name, "is required in production");
    return devDefault;
  }
  if (production && raw === devDefault) fail(name, "must not be the development default in production");
  if (Buffer.byteLength(raw) < schema.minLength!) fail(name, `must be at least ${schema.minLength} bytes`);
  // Production refuses a secret anyone can read in this repository (tests, docs and examples are public).
  const written = production ? writtenInRepository(raw) : null;
  if (written)
    fail(name, `is written in this repository (${written}): anyone can read it; refused in production`);
  return raw;
}

function addressOf(name: string, raw: string): `0x${string}` {
  if (!isAddress(raw)) fail(name, `must be a 0x address (checksummed when mixed-case), got ${quote(raw)}`);
  return raw.toLowerCase() as `0x${string}`;
}
