/** The packed display store: what goes in comes out, by id, past its first size, stale entries refused. */
import { expect, it } from "vitest";
import { DisplayStore } from "./display-store.js";

const WALLET = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

it("returns each user's name (any UTF-8) and wallet, null wallets included, by binary search", () => {
  const store = new DisplayStore(3, 10);
  store.append([
    { id: 2, displayName: "Ana", wallet: WALLET },
    { id: 5, displayName: "Zoë 🏆", wallet: null },
    { id: 9, displayName: "", wallet: WALLET },
  ]);
  expect(store.get(2)).toEqual({ displayName: "Ana", wallet: WALLET });
  expect(store.get(5)).toEqual({ displayName: "Zoë 🏆", wallet: null });
  expect(store.get(9)).toEqual({ displayName: "", wallet: WALLET });
  for (const absent of [1, 3, 10]) expect(store.get(absent)).toBeUndefined();
  expect(store.size).toBe(3);
});

it("grows past the size it was made for, and skips a user at or below the last id", () => {
  const store = new DisplayStore(1, 1);
  const users = Array.from({ length: 100 }, (_, i) => ({
    id: 10 + 2 * i,
    displayName: `Player ${i}`,
    wallet: null,
  }));
  store.append(users.slice(0, 60));
  store.append(users.slice(50));
  expect(store.size).toBe(100);
  expect(store.get(10)).toEqual({ displayName: "Player 0", wallet: null });
  expect(store.get(208)).toEqual({ displayName: "Player 99", wallet: null });
  expect(store.get(11)).toBeUndefined();
});

it("a stale user is not answered; a wallet not 42 characters long is not stored", () => {
  const store = new DisplayStore(2, 4);
  store.append([
    { id: 1, displayName: "a", wallet: WALLET },
    { id: 2, displayName: "b", wallet: "0x1234" },
  ]);
  store.markStale(1);
  store.markStale(7);
  expect(store.get(1)).toBeUndefined();
  expect(store.get(2)).toBeUndefined();
});
