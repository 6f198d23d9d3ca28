/**
 * Helpers for the players' HTTP tests (events, bets, settlement, claims, history): they set events up and settle
 * them only through the admin API (SPEC §7) and act as players only through the player API (SPEC §9).
 */
import { expect } from "vitest";
import { trustVerifier } from "../src/predictions/chain-verifier.js";
import { ADMIN, call, type TestApp } from "./app.js";
import { buildEventBody } from "./factories.js";

export { KICKOFF } from "./factories.js";

/** Creates or updates an event (`buildEventBody(over)`) through `PUT /api/admin/events/:id`; returns it as served. */
export async function putEvent(t: TestApp, id: string, over: Record<string, unknown> = {}) {
  const res = await call(t.app, {
    method: "PUT",
    url: `/api/admin/events/${id}`,
    headers: ADMIN,
    payload: buildEventBody(over),
  });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body.data;
}

/** Posts an event's result (`POST /api/admin/events/:id/result`); returns status and body. */
export function postResult(t: TestApp, id: string, result: Record<string, unknown>) {
  return call(t.app, {
    method: "POST",
    url: `/api/admin/events/${id}/result`,
    headers: ADMIN,
    payload: result,
  });
}

/** A signed-in POST of a player (session cookie, optional extra headers). */
export function post(
  t: TestApp,
  url: string,
  cookie: string,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  return call(t.app, { method: "POST", url, headers: { cookie, ...headers }, payload: payload as object });
}

/** `POST /api/pred2earn/bet-placed` (v1). */
export function bet(
  t: TestApp,
  cookie: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return post(t, "/api/pred2earn/bet-placed", cookie, payload, headers);
}

/** `POST /api/pred2earn/bet-placed-v2`. */
export function betV2(
  t: TestApp,
  cookie: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return post(t, "/api/pred2earn/bet-placed-v2", cookie, payload, headers);
}

/** `POST /api/pred2earn/claim-payout`. */
export function claim(t: TestApp, cookie: string, predictionId: unknown) {
  return post(t, "/api/pred2earn/claim-payout", cookie, { predictionId });
}

/** A distinct, valid transaction hash per i. */
export function txHash(i: number): string {
  return `0x${"ab".repeat(28)}${i.toString(16).padStart(8, "0")}`;
}

/** Asserts the SPEC error envelope with this status and code. */
export function expectError(res: { status: number; body: any }, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, status, code });
  expect(typeof res.body.error).toBe("string");
}

/** Asserts a 400 VALIDATION_FAILED whose message and details name `field` (e.g. "body.stake"). */
export function expectInvalid(res: { status: number; body: any }, field: string): void {
  expectError(res, 400, "VALIDATION_FAILED");
  expect(res.body.error).toContain(field);
  expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

/** Asserts a 2xx success envelope and returns its `data`. */
export function dataOf(res: { status: number; body: any }, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

/**
 * The dependencies of the on-chain bet use cases (`verifyPendingBet`, `recordChainBets`) as `t`'s app has them,
 * with the trust-mode verifier and no chain: for tests that drive those use cases directly.
 */
export function trustBetDeps(t: TestApp) {
  return {
    db: t.database.db,
    clock: t.clock,
    season: { seasonStart: t.config.seasonStart, weekOneStart: t.config.weekOneStart },
    spPerUsdc: t.config.spPerUsdc,
    welcomeCredits: t.config.welcomeCredits,
    verifier: trustVerifier,
    chain: null,
    payouts: null,
    acceptedChainIds: t.config.siweChainIds,
  };
}
