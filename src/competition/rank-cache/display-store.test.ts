/** The packed display store: what goes in (any order) comes out by id once sealed, past its first size; stale refused. */
import fc from "fast-check";
import { expect, it } from "vitest";
import { DisplayStore } from "./display-store.js";

const WALLET = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

it("returns each user's name (any UTF-8) and wallet, null wallets included, appended in any order", () => {
  const store = new DisplayStore(3, 10);
  store.append([
    { id: 9, displayName: "", wallet: WALLET },
    { id: 2, displayName: "Ana", wallet: WALLET },
    { id: 5, displayName: "Zoë 🏆", wallet: null },
  ]);
  expect(store.get(2)).toBeUndefined();
  store.seal();
  expect(store.get(2)).toEqual({ displayName: "Ana", wallet: WALLET });
  expect(store.get(5)).toEqual({ displayName: "Zoë 🏆", wallet: null });
  expect(store.get(9)).toEqual({ displayName: "", wallet: WALLET });
  for (const absent of [1, 3, 10]) expect(store.get(absent)).toBeUndefined();
  expect(store.size).toBe(3);
});

it("grows past the size it was made for; ids as numbers (9 before 10), up to 2^32 − 1", () => {
  const store = new DisplayStore(1, 1);
  const users = Array.from({ length: 100 }, (_, i) => ({
    id: 10 + 2 * i,
    displayName: `Player ${i}`,
    wallet: null,
  }));
  store.append(users.slice(50));
  store.append(users.slice(0, 50));
  store.append([
    { id: 9, displayName: "nine", wallet: null },
    { id: 2 ** 32 - 1, displayName: "last", wallet: null },
    { id: 2 ** 32, displayName: "too far", wallet: null },
  ]);
  store.seal();
  expect(store.size).toBe(102);
  expect(store.get(9)).toEqual({ displayName: "nine", wallet: null });
  expect(store.get(10)).toEqual({ displayName: "Player 0", wallet: null });
  expect(store.get(208)).toEqual({ displayName: "Player 99", wallet: null });
  expect(store.get(2 ** 32 - 1)).toEqual({ displayName: "last", wallet: null });
  for (const absent of [11, 2 ** 32]) expect(store.get(absent)).toBeUndefined();
});

it("a stale user is not answered; a wallet not 42 characters long is not stored", () => {
  const store = new DisplayStore(2, 4);
  store.append([
    { id: 1, displayName: "a", wallet: WALLET },
    { id: 2, displayName: "b", wallet: "0x1234" },
  ]);
  store.seal();
  store.markStale(1);
  store.markStale(7);
  expect(store.get(1)).toBeUndefined();
  expect(store.get(2)).toBeUndefined();
});

it("answers the same for dense ids (a table of slots) as for sparse ones (a search), stale and absent ids too", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 120 }),
      fc.array(fc.integer({ min: 0, max: 310 }), { maxLength: 10 }),
      (ids, stale) => {
        const users = ids.map((id) => ({ id, displayName: `P${id}`, wallet: id % 3 === 0 ? null : WALLET }));
        // The same users, plus one whose id makes the span 2^32: the store searches its keys instead.
        const far = { id: 2 ** 32 - 1, displayName: "far", wallet: null };
        const dense = new DisplayStore(1, 1);
        const sparse = new DisplayStore(1, 1);
        dense.append(users);
        sparse.append([...users, far]);
        dense.seal();
        sparse.seal();
        for (const id of stale) {
          dense.markStale(id);
          sparse.markStale(id);
        }
        for (let id = -1; id <= 311; id++) {
          const want = ids.includes(id) && !stale.includes(id) ? users.find((u) => u.id === id) : undefined;
          const expected = want && { displayName: want.displayName, wallet: want.wallet };
          expect(dense.get(id)).toEqual(expected);
          expect(sparse.get(id)).toEqual(expected);
        }
        expect(dense.get(1.5)).toBeUndefined();
        expect(sparse.get(2 ** 32 - 1)).toEqual({ displayName: "far", wallet: null });
      },
    ),
    { numRuns: 200 },
  );
});
