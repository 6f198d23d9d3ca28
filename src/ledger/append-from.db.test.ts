/**
 * `appendSpEntriesFrom`, the ledger append a settle uses (its rows selected by a query, never sent to the process):
 * the rows and the totals they move, a replay that writes nothing, NOT_FOUND for an unknown user with nothing
 * written, and (PostgreSQL) the lock on every awarded user's row held until the transaction ends, so two appends
 * for one user meet there first.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/app.js";
import { createTestDatabase, releaseTestDatabase, testEngine } from "../../test/db.js";
import type { Database, Queryable } from "../db/client.js";
import { rows } from "../db/client.js";
import type { Season } from "../shared/season.js";
import { appendSpEntriesFrom } from "./ledger.js";

const config = testConfig();
const season: Season = { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart };

let database: Database;
const users: bigint[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  for (const n of [1, 2, 3]) {
    const [u] = await rows<{ id: string }>(
      database.db,
      sql`insert into users (wallet, display_name, referral_code)
          values (${`0x${String(n).repeat(40)}`}, ${`p${n}`}, ${`APPEND0${n}`}) returning id::text as id`,
    );
    users.push(BigInt(u!.id));
  }
});
afterAll(async () => releaseTestDatabase(database));

/** A source query of `(user, amount, external id)` rows without an event, as a settle's awards select theirs. */
function awards(list: Array<[bigint, number, string]>) {
  const values = sql.join(
    list.map(([user, amount, id]) => sql`(${user}::bigint, 'RAFFLE', ${amount}::bigint, null::text, ${id})`),
    sql`, `,
  );
  return sql`select * from (values ${values}) as s(user_id, type, amount, event_id, external_id)`;
}

async function totals(q: Queryable): Promise<Record<string, number>> {
  const found = await rows<{ user_id: string; total_sp: string }>(
    q,
    sql`select user_id::text, total_sp::text from user_sp_totals where user_id = any(${`{${users.join(",")}}`}::bigint[])`,
  );
  return Object.fromEntries(found.map((r) => [r.user_id, Number(r.total_sp)]));
}

describe("appendSpEntriesFrom", () => {
  it("appends the rows the query selects, moves each user's total by their sum, and writes nothing on a replay", async () => {
    const [a, b] = users as [bigint, bigint];
    const source = awards([
      [b, 7, "from-test:1"],
      [a, 5, "from-test:2"],
      [b, 3, "from-test:3"],
    ]);
    const created = await database.db.transaction((tx) => appendSpEntriesFrom(tx, season, source));
    expect(created).toBe(3);
    // a: 5; b: 7 + 3.
    expect(await totals(database.db)).toEqual({ [String(a)]: 5, [String(b)]: 10 });
    const again = await database.db.transaction((tx) => appendSpEntriesFrom(tx, season, source));
    expect(again).toBe(0);
    expect(await totals(database.db)).toEqual({ [String(a)]: 5, [String(b)]: 10 });
  });

  it("refuses a row of an unknown user with NOT_FOUND and writes none of the rows", async () => {
    const [, , c] = users as [bigint, bigint, bigint];
    const before = await totals(database.db);
    const source = awards([
      [c, 4, "from-test:4"],
      [999_999_999n, 1, "from-test:5"],
    ]);
    await expect(
      database.db.transaction((tx) => appendSpEntriesFrom(tx, season, source)),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "User 999999999 not found",
    });
    expect(await totals(database.db)).toEqual(before);
    const [left] = await rows<{ n: string }>(
      database.db,
      sql`select count(*)::text as n from sp_ledger where external_id in ('from-test:4', 'from-test:5')`,
    );
    expect(left!.n).toBe("0");
  });

  it.runIf(testEngine === "postgres")(
    "holds every awarded user's row locked until its transaction ends, and no other user's",
    async () => {
      const [a, b, c] = users as [bigint, bigint, bigint];
      const tryLock = (user: bigint) =>
        database.db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1 from users where id = ${user} for no key update nowait`);
            return "locked";
          })
          .catch((err) => (err as { cause?: { code?: string } }).cause?.code ?? String(err));
      let seen: Record<string, string> = {};
      await database.db.transaction(async (tx) => {
        await appendSpEntriesFrom(
          tx,
          season,
          awards([
            [c, 2, "from-test:6"],
            [a, 2, "from-test:7"],
          ]),
        );
        seen = { a: await tryLock(a), b: await tryLock(b), c: await tryLock(c) };
      });
      // 55P03: lock_not_available.
      expect(seen).toEqual({ a: "55P03", b: "locked", c: "55P03" });
      expect(await tryLock(a)).toBe("locked");
    },
  );
});
