/**
 * HTTP edge of the admin / feed API (SPEC §7), behind `Authorization: Bearer ADMIN_TOKEN` (401 otherwise).
 * Creation answers 201; an idempotent replay answers 200 with the first record.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { type AdjustableClock, isTestClockInstant, TEST_CLOCK_YEARS } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { presentEvent } from "../events/presenters.js";
import { EventIdParams, EventSchema, EventUpsertBody } from "../events/schema.js";
import { upsertEvent } from "../events/upsert-event.js";
import { presentFee } from "../fees/presenters.js";
import { recordProtocolFee } from "../fees/record-fee.js";
import { hasAdminToken } from "../http/admin-token.js";
import { ok, okSchema } from "../http/envelope.js";
import type { TypedApp } from "../http/typed-app.js";
import { presentSpRow } from "../ledger/presenters.js";
import {
  type RecordSpDeps,
  recordSpTransaction,
  recordSpTransactions,
} from "../ledger/record-sp-transaction.js";
import { settleEvent } from "../predictions/settle-event.js";
import { drawDailyRaffle } from "../rewards/daily-raffle.js";
import { Nullable, StringEnum, UsdcString } from "../shared/schema-types.js";
import type { Season } from "../shared/season.js";
import { SP_TYPES } from "../shared/sp-types.js";
import {
  ClockBody,
  EventResultBody,
  ProtocolFeeBody,
  RaffleDrawBody,
  SpTransactionBatchBody,
  SpTransactionBody,
} from "./schema.js";

export interface AdminDeps {
  db: Db;
  /** For work long by nature at scale (settling an event): Database.bulkDb. */
  bulkDb?: Db;
  clock: AdjustableClock;
  season: Season;
  adminToken: string;
  testClock: boolean;
  welcomeCredits: number;
  /** The app's group commit of single SP rows (record-sp-transaction.ts). */
  spAppends: RecordSpDeps["spAppends"];
  spPerUsdc: number;
  rafflePrizeSp: number;
}

export async function adminRoutes(instance: FastifyInstance, opts: { deps: AdminDeps }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = opts;

  app.addHook("onRequest", async (request) => {
    if (!hasAdminToken(request.headers.authorization, deps.adminToken)) {
      throw new AppError("UNAUTHENTICATED", "Missing or wrong admin bearer token");
    }
  });

  eventUpsertRoute(app, deps);
  spTransactionRoute(app, deps);
  spBatchRoute(app, deps);
  protocolFeeRoute(app, deps);
  settleEventRoute(app, deps);
  raffleDrawRoute(app, deps);
  clockRoute(app, deps);
}

const tags = ["admin"];

const SpRow = Type.Object(
  {
    id: Type.String(),
    userId: Type.String(),
    type: StringEnum(SP_TYPES),
    amount: Type.Integer(),
    eventId: Nullable(Type.String()),
    externalId: Type.String(),
    createdAt: Type.String(),
  },
  { title: "SpLedgerRow" },
);

/** PUT /api/admin/events/:id: create or update an event and its odds. */
function eventUpsertRoute(app: TypedApp, deps: AdminDeps): void {
  app.put(
    "/api/admin/events/:id",
    {
      schema: {
        summary: "Create (201) or update an event and its odds",
        tags,
        params: EventIdParams,
        body: EventUpsertBody,
        response: { 200: okSchema(EventSchema), 201: okSchema(EventSchema) },
      },
      config: { auth: "admin", errors: ["CONFLICT"] },
    },
    async (request, reply) => {
      const { event, created } = await upsertEvent(deps, request.params.id, request.body);
      reply.code(created ? 201 : 200);
      return ok(presentEvent(event));
    },
  );
}

/** POST /api/admin/sp-transactions: one SP row (group-committed), idempotent on its externalId. */
function spTransactionRoute(app: TypedApp, deps: AdminDeps): void {
  app.post(
    "/api/admin/sp-transactions",
    {
      schema: {
        summary: "Append one SP ledger row (201); a replayed externalId returns the first (200)",
        tags,
        body: SpTransactionBody,
        response: { 200: okSchema(SpRow), 201: okSchema(SpRow) },
      },
      config: { auth: "admin", errors: ["NOT_FOUND"] },
    },
    async (request, reply) => {
      const { row, created } = await recordSpTransaction(deps, request.body);
      reply.code(created ? 201 : 200);
      return ok(presentSpRow(row));
    },
  );
}

/** POST /api/admin/sp-transactions/batch: up to 1,000 SP rows in one transaction, all or nothing. */
function spBatchRoute(app: TypedApp, deps: AdminDeps): void {
  app.post(
    "/api/admin/sp-transactions/batch",
    {
      // 1,000 rows of at most ~450 bytes each: above the app's 64 KiB default.
      bodyLimit: 1024 * 1024,
      schema: {
        summary: "Append up to 1,000 SP ledger rows in one transaction, each idempotent on its externalId",
        description:
          "One result per row, in request order: `created: false` with the first row for an externalId seen " +
          "before (also earlier in the same batch). All or nothing: an invalid row (400) or an unknown user or " +
          "event (404) rejects the whole batch and writes nothing.",
        tags,
        body: SpTransactionBatchBody,
        response: {
          200: okSchema(
            Type.Object(
              {
                created: Type.Integer(),
                results: Type.Array(Type.Object({ created: Type.Boolean(), row: SpRow })),
              },
              { title: "SpTransactionBatchResult" },
            ),
          ),
        },
      },
      config: { auth: "admin", errors: ["NOT_FOUND"] },
    },
    async (request) => {
      const results = await recordSpTransactions(deps, request.body.rows);
      return ok({
        created: results.filter((r) => r.created).length,
        results: results.map((r) => ({ created: r.created, row: presentSpRow(r.row) })),
      });
    },
  );
}

/** POST /api/admin/protocol-fees: record one protocol fee, idempotent on (txHash, logIndex). */
function protocolFeeRoute(app: TypedApp, deps: AdminDeps): void {
  const Fee = Type.Object(
    {
      txHash: Type.String(),
      logIndex: Type.Integer(),
      amountUsdc: UsdcString(),
      occurredAt: Type.String({ format: "date-time" }),
    },
    { title: "ProtocolFee" },
  );
  app.post(
    "/api/admin/protocol-fees",
    {
      schema: {
        summary: "Record one protocol fee (201); a replayed (txHash, logIndex) returns the first (200)",
        tags,
        body: ProtocolFeeBody,
        response: { 200: okSchema(Fee), 201: okSchema(Fee) },
      },
      config: { auth: "admin" },
    },
    async (request, reply) => {
      const { fee, created } = await recordProtocolFee(deps.db, request.body);
      reply.code(created ? 201 : 200);
      return ok(presentFee(fee));
    },
  );
}

/** POST /api/admin/events/:id/result: settle an event and its open predictions once. */
function settleEventRoute(app: TypedApp, deps: AdminDeps): void {
  app.post(
    "/api/admin/events/:id/result",
    {
      schema: {
        summary: "Settle an event: its result settles every open prediction once",
        tags,
        params: EventIdParams,
        body: EventResultBody,
        response: {
          200: okSchema(
            Type.Object(
              {
                event: EventSchema,
                settled: Type.Integer({ description: "Predictions this call settled" }),
                alreadySettled: Type.Boolean({
                  description: "The same result was posted before: nothing changed",
                }),
              },
              { title: "EventSettlement" },
            ),
          ),
        },
      },
      config: { auth: "admin", errors: ["NOT_FOUND", "CONFLICT"] },
    },
    async (request) => {
      const { event, settled, alreadySettled } = await settleEvent(
        { ...deps, outcomeLog: request.log },
        {
          eventId: request.params.id,
          result: request.body,
        },
      );
      return ok({ event: presentEvent(event), settled, alreadySettled });
    },
  );
}

/** POST /api/admin/raffle/draw: draw an ended day's raffle once. */
function raffleDrawRoute(app: TypedApp, deps: AdminDeps): void {
  app.post(
    "/api/admin/raffle/draw",
    {
      schema: {
        summary: "Draw an ended day's raffle (once)",
        tags,
        body: RaffleDrawBody,
        response: {
          200: okSchema(
            Type.Object(
              {
                date: Type.String(),
                seed: Type.String(),
                eligibleCount: Type.Integer(),
                winnerUserId: Nullable(Type.String()),
                prizeSp: Type.Integer(),
                drawnAt: Type.String(),
                alreadyDrawn: Type.Boolean(),
              },
              { title: "RaffleDraw" },
            ),
          ),
        },
      },
      config: { auth: "admin", errors: ["CONFLICT"] },
    },
    async (request) => {
      const { raffle, alreadyDrawn } = await drawDailyRaffle(
        { ...deps, prizeSp: deps.rafflePrizeSp },
        { day: request.body.date },
      );
      return ok({
        date: raffle.day,
        seed: raffle.seed,
        eligibleCount: raffle.eligibleCount,
        winnerUserId: raffle.winnerUserId === null ? null : String(raffle.winnerUserId),
        prizeSp: raffle.prizeSp,
        drawnAt: raffle.drawnAt.toISOString(),
        alreadyDrawn,
      });
    },
  );
}

/** PUT /api/admin/clock: pin the service's clock (TEST_CLOCK=1 only). */
function clockRoute(app: TypedApp, deps: AdminDeps): void {
  // Always routed, so the document (and the SDK generated from it) has it; without TEST_CLOCK=1 it answers 404
  // as an unknown route would (SPEC §7).
  app.put(
    "/api/admin/clock",
    {
      schema: {
        summary: "Pin the service's clock, for tests and demos (TEST_CLOCK=1 only)",
        description:
          "Every rule that reads the time (kickoffs, weeks, nonces, sessions, daily credits) then sees `now`; null " +
          "returns to real time. The instant must lie in the UTC years 2000–2100 (400 VALIDATION_FAILED otherwise). " +
          "Refused in production; 404 NOT_FOUND unless the service runs with TEST_CLOCK=1.",
        tags,
        body: ClockBody,
        response: {
          200: okSchema(
            Type.Object(
              { now: Type.String({ format: "date-time", description: "The clock's time now" }) },
              { title: "Clock" },
            ),
          ),
        },
      },
      config: { auth: "admin", errors: ["NOT_FOUND"] },
    },
    async (request) => {
      if (!deps.testClock)
        throw new AppError("NOT_FOUND", "Route PUT /api/admin/clock not found (TEST_CLOCK is off)");
      const at = request.body.now === null ? null : new Date(request.body.now);
      if (at && !isTestClockInstant(at)) {
        const message = `must be in the UTC years ${TEST_CLOCK_YEARS.min}–${TEST_CLOCK_YEARS.max}`;
        throw new AppError("VALIDATION_FAILED", `body.now ${message}`, [{ field: "body.now", message }]);
      }
      deps.clock.set(at);
      return ok({ now: deps.clock.now().toISOString() });
    },
  );
}
