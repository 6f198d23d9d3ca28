/**
 * The test databases' reuse (test/db.ts `releaseTestDatabase`): an embedded database given back is reset to the
 * template and lent to the next test file, so it must be indistinguishable from a fresh clone; one whose schema a
 * test changed, or whose one connection a transaction still holds, is closed instead. On PostgreSQL every
 * database is a fresh one, and the same assertions hold.
 */
import { type SQL, sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { type Database, rows } from "../src/db/client.js";
import { createTestDatabase, releaseTestDatabase, testDatabaseReuse, testEngine } from "./db.js";

const embedded = testEngine === "pglite";
let current: Database | undefined;
afterAll(async () => {
  if (current) await releaseTestDatabase(current);
});

async function value<T>(database: Database, query: SQL): Promise<T> {
  const [row] = await rows<{ v: T }>(database.db, query);
  return row!.v;
}

async function nextDatabase(): Promise<Database> {
  if (current) await releaseTestDatabase(current);
  current = await createTestDatabase();
  return current;
}

it("lends a given-back database emptied, its ids restarted and its session's state gone", async () => {
  const first = await nextDatabase();
  await first.db.execute(sql`insert into users (wallet, display_name, referral_code)
    values ('0x00000000000000000000000000000000000000aa', 'a', 'REUSE001'),
           ('0x00000000000000000000000000000000000000bb', 'b', 'REUSE002')`);
  await first.db.execute(
    sql`insert into sessions (id, user_id, expires_at) values ('s1', 2, now() + interval '1 day')`,
  );
  await first.db.execute(sql`set session_replication_role = replica`);
  await first.db.execute(sql`create temp table left_behind (x int)`);
  const reusedBefore = testDatabaseReuse.reused;

  const second = await nextDatabase();
  if (embedded) expect(testDatabaseReuse.reused).toBe(reusedBefore + 1);
  expect(await value<number>(second, sql`select count(*)::int as v from users`)).toBe(0);
  expect(await value<number>(second, sql`select count(*)::int as v from sessions`)).toBe(0);
  expect(await value<string>(second, sql`select current_setting('session_replication_role') as v`)).toBe(
    "origin",
  );
  expect(
    await value<string | null>(second, sql`select to_regclass('pg_temp.left_behind')::text as v`),
  ).toBeNull();
  const id = await value<string>(
    second,
    sql`insert into users (wallet, display_name, referral_code)
        values ('0x00000000000000000000000000000000000000cc', 'c', 'REUSE003') returning id::text as v`,
  );
  expect(id).toBe("1");
});

it("closes a database whose schema a test changed, and lends a fresh clone instead", async () => {
  const altered = await nextDatabase();
  await altered.db.execute(sql`alter table users add column scratch int`);
  await altered.db.execute(sql`alter table sessions disable trigger sessions_no_unexpired_delete`);
  const discardedBefore = testDatabaseReuse.discarded;

  const next = await nextDatabase();
  if (embedded) expect(testDatabaseReuse.discarded).toBe(discardedBefore + 1);
  const columns = await value<number>(
    next,
    sql`select count(*)::int as v from information_schema.columns where table_name = 'users' and column_name = 'scratch'`,
  );
  expect(columns).toBe(0);
  const enabled = await value<string>(
    next,
    sql`select tgenabled::text as v from pg_trigger where tgname = 'sessions_no_unexpired_delete'`,
  );
  expect(enabled).toBe("O");
});

// On PostgreSQL a given-back database is closed, which waits for its transactions as it always did.
it.runIf(embedded)("closes a database a transaction still holds, within the reset's bound", async () => {
  const held = await nextDatabase();
  let release!: () => void;
  const hanging = held.db.transaction(async (tx) => {
    await tx.execute(sql`insert into events (id, sport, league, home_team, away_team, kickoff_at, status, warmup, markets)
      values ('held', 'football', 'L', 'H', 'A', now(), 'scheduled', false, '[]'::jsonb)`);
    await new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  const discardedBefore = testDatabaseReuse.discarded;
  const t = Date.now();
  const next = await nextDatabase();
  expect(Date.now() - t).toBeLessThan(15_000);
  expect(testDatabaseReuse.discarded).toBe(discardedBefore + 1);
  expect(await value<number>(next, sql`select count(*)::int as v from events`)).toBe(0);
  release();
  await hanging.catch(() => {});
});
