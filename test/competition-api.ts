/**
 * Helpers for the competition's HTTP tests: they set up events, SP ledger rows, protocol fees and the clock only
 * through the public admin API (SPEC §7), and read only through the competition API (SPEC §8).
 */
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { type Db, pgErrorCode, sql } from "../src/db/client.js";
import { ADMIN, call, type TestApp, testKey } from "./app.js";
import { buildEventBody } from "./factories.js";

/** Rate limits high enough that a test file's many requests never meet a 429. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_READ_PER_MIN: "1000000",
  RATE_LIMIT_WRITE_PER_MIN: "1000000",
  RATE_LIMIT_AUTH_PER_MIN: "1000000",
  RATE_LIMIT_FINALIZE_PER_MIN: "1000000",
};

export interface Player {
  key: `0x${string}`;
  /** Checksummed address, as the API serves it. */
  wallet: string;
}

/** Player i: a deterministic test key (so they can sign in) and its wallet. */
export function player(i: number): Player {
  const key = testKey(i);
  return { key, wallet: privateKeyToAccount(key).address };
}

/** Pins the clock through `PUT /api/admin/clock` (TEST_CLOCK=1); null returns to real time. */
export async function setNow(t: TestApp, iso: string | null): Promise<void> {
  const res = await call(t.app, {
    method: "PUT",
    url: "/api/admin/clock",
    headers: ADMIN,
    payload: { now: iso },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Creates or updates an event kicking off at `kickoffAt` (`PUT /api/admin/events/:id`). */
export async function putEvent(t: TestApp, id: string, kickoffAt: string): Promise<void> {
  const res = await call(t.app, {
    method: "PUT",
    url: `/api/admin/events/${id}`,
    headers: ADMIN,
    payload: buildEventBody({ kickoffAt }),
  });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
}

let externalIds = 0;

export type SpRow = ({ wallet: string } | { userId: string }) & {
  type:
    | "PREDICTION"
    | "WARMUP_PREDICTION"
    | "ONCHAIN_PREDICTION"
    | "ONCHAIN_SP"
    | "REFERRAL"
    | "RAFFLE"
    | "ADJUSTMENT";
  amount: number;
  eventId?: string;
  externalId?: string;
};

/** Appends one SP ledger row (`POST /api/admin/sp-transactions`, 201); returns the owner's user id. */
export async function addSp(t: TestApp, row: SpRow): Promise<string> {
  const res = await call(t.app, {
    method: "POST",
    url: "/api/admin/sp-transactions",
    headers: ADMIN,
    payload: { ...row, externalId: row.externalId ?? `test-sp-${++externalIds}` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.userId as string;
}

let txHashes = 0;

/** Records one protocol fee (`POST /api/admin/protocol-fees`, 201) under a fresh tx hash. */
export async function addFee(t: TestApp, amountUsdc: string, occurredAt: string): Promise<void> {
  const txHash = `0x${(++txHashes).toString(16).padStart(64, "0")}`;
  const res = await call(t.app, {
    method: "POST",
    url: "/api/admin/protocol-fees",
    headers: ADMIN,
    payload: { txHash, logIndex: 0, amountUsdc, occurredAt },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** GET a URL (optionally with a session cookie) and return status and parsed body. */
export function get(t: TestApp, url: string, cookie?: string) {
  return call(t.app, { method: "GET", url, headers: cookie ? { cookie } : {} });
}

/** GET a URL that must answer 200; returns `data` of the success envelope. */
export async function getData(t: TestApp, url: string, cookie?: string) {
  const res = await get(t, url, cookie);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

/** Asserts the SPEC error envelope of a 400 VALIDATION_FAILED that names `field` (e.g. "query.week"). */
export function expectValidationFailed(res: { status: number; body: any }, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ success: false, status: 400, code: "VALIDATION_FAILED" });
  expect(typeof res.body.error).toBe("string");
  expect(res.body.error).toContain(field);
  expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

/** Numeric ascending order of decimal user ids (the ladders' tie order). */
export function byUserId(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Tries to write one Qualification snapshot row of `week` straight into the table (finalize alone writes them):
 * "inserted", or the PostgreSQL error code that refused it (23505 a key taken, 23514 no partition for the week).
 */
export function tryInsertSnapshotRow(
  db: Db,
  week: number,
  position: number,
  userId: string,
): Promise<string> {
  return db
    .execute(
      sql`insert into competition_leaderboard_snapshots
            (week, ladder, position, user_id, competitive_sp, rank, within_cutoff)
          values (${week}, 'qualification', ${position}, ${BigInt(userId)}, 1, 99, false)`,
    )
    .then(
      () => "inserted",
      (err: unknown) => pgErrorCode(err) ?? String(err),
    );
}
