/**
 * Ladder rows show each wallet EIP-55 checksummed from the stored `wallet_checksum` (no keccak on a read): it is
 * written with the wallet (a user created alone, a batch of new wallets, a wallet linked later) and back-filled at
 * start-up for rows stored without it. Checksums below are EIP-55's own test vectors.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, releaseTestDatabase } from "../../test/db.js";
import { type Database, rows, textArray } from "../db/client.js";
import { backfillWalletChecksums } from "./backfill-wallet-checksums.js";
import {
  displayRowsInPages,
  findLadderDisplay,
  findOrCreateOidcUser,
  findOrCreateWalletUser,
  insertWalletUsers,
  linkWallet,
} from "./users.js";

const A = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
const A_SUM = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const B = "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359";
const B_SUM = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const C = "0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb";
const C_SUM = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
const D = "0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb";
const D_SUM = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await releaseTestDatabase(database);
});

const stored = async (id: bigint | string) =>
  (
    await rows<{ k: string | null }>(
      database.db,
      sql`select wallet_checksum as k from users where id = ${String(id)}::bigint`,
    )
  )[0]!.k;

it("stores the checksum with a wallet user, a batch of new wallets and a wallet linked later", async () => {
  const { user } = await findOrCreateWalletUser(database.db, { walletLower: A, displayName: "a" });
  expect(await stored(user.id)).toBe(A_SUM);
  const batch = await insertWalletUsers(database.db, [{ walletLower: B, displayName: "b" }]);
  expect(await stored(batch.get(B)!)).toBe(B_SUM);
  const { user: ida } = await findOrCreateOidcUser(database.db, {
    issuer: "https://issuer.test",
    subject: "ida",
    displayName: "Ida",
  });
  expect(await stored(ida.id)).toBeNull();
  expect(await linkWallet(database.db, ida.id, C)).toBe(true);
  expect(await stored(ida.id)).toBe(C_SUM);
  const shown = await findLadderDisplay(database.db, [String(user.id), String(ida.id)]);
  expect(shown.get(String(user.id))).toEqual({ displayName: "a", wallet: A_SUM });
  expect(shown.get(String(ida.id))).toEqual({ displayName: "Ida", wallet: C_SUM });
});

it("back-fills rows stored without a checksum; until then a read computes it", async () => {
  const [row] = await rows<{ id: string }>(
    database.db,
    sql`insert into users (wallet, display_name, referral_code) values (${D}, 'd', 'CHKSUM01') returning id::text as id`,
  );
  expect(await stored(row!.id)).toBeNull();
  expect((await findLadderDisplay(database.db, [row!.id])).get(row!.id)?.wallet).toBe(D_SUM);
  expect(await backfillWalletChecksums(database.db)).toBe(1);
  expect(await stored(row!.id)).toBe(D_SUM);
  expect(await backfillWalletChecksums(database.db)).toBe(0);
});

it("reads the table a page at a time: every row is back-filled once", async () => {
  const wallets = [A, B, C, D].map((w) => w.replace("0x", "0x1").slice(0, 42));
  await database.db.execute(
    sql`insert into users (wallet, display_name, referral_code)
        select w, 'b' || i, 'CHKBATCH' || i from unnest(${textArray(wallets)}) with ordinality as t(w, i)`,
  );
  // One table page a read.
  expect(await backfillWalletChecksums(database.db, 1)).toBe(4);
  const left = await rows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from users where wallet is not null and wallet_checksum is null`,
  );
  expect(left[0]!.n).toBe(0);
  expect(await backfillWalletChecksums(database.db, 1)).toBe(0);
});

it("back-fills users whatever their ids (900, 1000, 10000: an order as text is not the order as numbers)", async () => {
  // Replays a keyset walk (since replaced by pages) ordered by the `id::text` output column: "1000" < "10000" <
  // "900", so the walk jumped past 900 and never came back to it.
  const wallets = [A, B, C].map((w) => w.replace("0x", "0x2").slice(0, 42));
  await database.db.execute(
    sql`insert into users (id, wallet, display_name, referral_code) overriding system value
        select i, w, 'n' || i, 'CHKTEXT' || i from unnest(${textArray(wallets)}, '{900,1000,10000}'::bigint[]) as t(w, i)`,
  );
  expect(await backfillWalletChecksums(database.db, 1)).toBe(3);
});

it("reads every user in table pages, each once: the pages split in two reads give the whole table", async () => {
  const all = await displayRowsInPages(database.db, 0, null);
  const ids = all.map((u) => u.id).sort((a, b) => a - b);
  expect(new Set(ids).size).toBe(ids.length);
  const count = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from users`);
  expect(ids).toHaveLength(count[0]!.n);
  const split = [
    ...(await displayRowsInPages(database.db, 0, 1)),
    ...(await displayRowsInPages(database.db, 1, null)),
  ];
  expect(split.map((u) => u.id).sort((a, b) => a - b)).toEqual(ids);
  const shown = all.find((u) => u.id === 900);
  expect(shown).toEqual({
    id: 900,
    displayName: "n900",
    wallet: expect.stringMatching(/^0x2[0-9a-fA-F]{39}$/),
  });
});
