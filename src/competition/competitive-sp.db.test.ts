/**
 * The per-week competitive SP the ledger keeps in SQL (week_user_sp, what every ladder ranks) against the
 * reference `competitiveSpByUser`: after any sequence of SP ledger rows (every type, with or without an event)
 * and kickoff moves between weeks, each player's SP of each week is the reference sum over the rows as they stand.
 *
 * Season of the test config: pre-season before Mon 2026-11-02; week 0 = [11-02, Tue 11-10); week N ≥ 1 =
 * [11-10 + 7(N−1) days, +7 days). Each run uses its own players and events, so runs never see each other's rows.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/app.js";
import { createTestDatabase, releaseTestDatabase } from "../../test/db.js";
import { buildEventBody } from "../../test/factories.js";
import { AdjustableClock } from "../clock.js";
import type { Database } from "../db/client.js";
import { upsertEvent } from "../events/upsert-event.js";
import { recordSpTransaction } from "../ledger/record-sp-transaction.js";
import { type Season, weekBounds } from "../shared/season.js";
import { SP_TYPES, type SpType } from "../shared/sp-types.js";
import { competitiveSpByUser } from "./competitive-sp.js";
import { liveSpOfUsers } from "./live-ladder.repository.js";

const config = testConfig();
const season: Season = { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart };
const clock = new AdjustableClock(new Date("2026-11-20T12:00:00.000Z")); // Fri, week 2
const WEEKS = [0, 1, 2, 3];
/** Kickoffs an event may have: pre-season, each week's first and last millisecond, mid-week. */
const KICKOFFS = [
  "2026-11-01T23:59:59.999Z", // Sun, pre-season
  "2026-11-02T00:00:00.000Z", // Mon, week 0's first ms
  "2026-11-09T23:59:59.999Z", // Mon, week 0's last ms
  "2026-11-10T00:00:00.000Z", // Tue, week 1's first ms
  "2026-11-19T18:00:00.000Z", // Thu, week 2
  "2026-11-30T23:59:59.999Z", // Mon, week 3's last ms
];
const PLAYERS = 3;
const EVENTS = 3;

let database: Database;
let run = 0;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => releaseTestDatabase(database));

type Step =
  | { kind: "sp"; player: number; type: SpType; amount: number; event: number | null }
  | { kind: "move"; event: number; kickoff: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("sp" as const),
    player: fc.nat(PLAYERS - 1),
    type: fc.constantFrom(...SP_TYPES),
    amount: fc.nat(1000),
    event: fc.option(fc.nat(EVENTS - 1)),
  }),
  fc.record({
    kind: fc.constant("move" as const),
    event: fc.nat(EVENTS - 1),
    kickoff: fc.nat(KICKOFFS.length - 1),
  }),
);

describe("week_user_sp against competitiveSpByUser", () => {
  it("holds each week's competitive SP of every player after any rows and kickoff moves", async () => {
    const deps = { db: database.db, clock, season };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const r = ++run;
        const wallet = (p: number) => `0x${(r * 16 + p + 1).toString(16).padStart(40, "0")}`;
        const eventId = (e: number) => `sp-${r}-${e}`;
        const kickoff = new Map<string, Date>();
        for (let e = 0; e < EVENTS; e++) {
          kickoff.set(eventId(e), new Date(KICKOFFS[e]!));
          await upsertEvent(deps, eventId(e), buildEventBody({ kickoffAt: KICKOFFS[e]! }));
        }
        const ledger: Array<{ userId: string; type: string; amount: number; eventId: string | null }> = [];
        for (const [i, s] of steps.entries()) {
          if (s.kind === "move") {
            kickoff.set(eventId(s.event), new Date(KICKOFFS[s.kickoff]!));
            await upsertEvent(deps, eventId(s.event), buildEventBody({ kickoffAt: KICKOFFS[s.kickoff]! }));
            continue;
          }
          const eventIdOf = s.event === null ? null : eventId(s.event);
          const { row } = await recordSpTransaction(deps, {
            wallet: wallet(s.player),
            type: s.type,
            amount: s.amount,
            ...(eventIdOf === null ? {} : { eventId: eventIdOf }),
            externalId: `sp-${r}-${i}`,
          });
          ledger.push({ userId: String(row.userId), type: s.type, amount: s.amount, eventId: eventIdOf });
        }
        const rows = ledger.map((l) => ({
          ...l,
          eventKickoffAt: l.eventId ? kickoff.get(l.eventId)! : null,
        }));
        const users = [...new Set(ledger.map((l) => l.userId))];
        for (const week of WEEKS) {
          const expected = competitiveSpByUser(rows, weekBounds(season, week));
          const stored = await liveSpOfUsers(database.db, week, users);
          expect(stored, `week ${week}`).toEqual(
            users.map((userId) => ({ userId, sp: expected.get(userId) ?? 0 })),
          );
        }
      }),
      { numRuns: 25 },
    );
  });
});
