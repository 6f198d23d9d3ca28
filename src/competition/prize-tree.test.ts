import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { concat, encodeAbiParameters, getAddress, type Hex, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import {
  buildPrizeTree,
  carriedFromWeek,
  LEAF_ENCODING,
  leafValues,
  outstandingArrears,
  prizeProof,
} from "./prize-tree.js";

const A = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"; // lower-case in, checksummed out
const B = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const C = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

/** The leaf PrizeDistributor.claim hashes: keccak256(bytes.concat(keccak256(abi.encode(week, account, amount)))). */
const leafHash = (week: number, account: string, amount: bigint) =>
  keccak256(
    keccak256(
      encodeAbiParameters(
        [{ type: "uint256" }, { type: "address" }, { type: "uint256" }],
        [BigInt(week), account as Hex, amount],
      ),
    ),
  );
/** OpenZeppelin's commutative pair hash: the smaller hash first. */
const pair = (x: Hex, y: Hex) => keccak256(BigInt(x) < BigInt(y) ? concat([x, y]) : concat([y, x]));

describe("buildPrizeTree", () => {
  it("gives tied winners one leaf each, leaves out zero amounts and lists wallet-less winners as awaiting", () => {
    // Week 3, pool 100 USDC: users 1 and 2 tied at rank 1 (35 % split two ways: 17.5 each), rank 3 20 %, rank 4
    // 10 %, rank 5 on a pool share of 0 (no leaf).
    const tree = buildPrizeTree(
      3,
      [
        { userId: "1", amountMicro: 17_500_000n },
        { userId: "2", amountMicro: 17_500_000n },
        { userId: "3", amountMicro: 20_000_000n },
        { userId: "4", amountMicro: 10_000_000n },
        { userId: "5", amountMicro: 0n },
      ],
      new Map([
        ["1", A],
        ["2", B],
        ["3", null],
        ["4", C],
        ["5", "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"],
      ]),
    );
    expect(tree.leaves).toEqual([
      {
        userId: "1",
        account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        amountMicro: 17_500_000n,
        carriedMicro: 0n,
      },
      { userId: "2", account: B, amountMicro: 17_500_000n, carriedMicro: 0n },
      { userId: "4", account: C, amountMicro: 10_000_000n, carriedMicro: 0n },
    ]);
    expect(tree.totalMicro).toBe(45_000_000n);
    expect(tree.awaitingWallet).toEqual([{ userId: "3", amountMicro: 20_000_000n }]);

    // A third party rebuilds the root from the published leaves; every proof folds to it by hand.
    const rebuilt = StandardMerkleTree.of(leafValues(3, tree.leaves), [...LEAF_ENCODING]);
    expect(tree.root).toBe(rebuilt.root);
    for (const leaf of tree.leaves) {
      const proof = prizeProof(tree, leaf.account.toLowerCase())!;
      let node = leafHash(3, leaf.account, leaf.amountMicro);
      for (const sibling of proof) node = pair(node, sibling);
      expect(node).toBe(tree.root);
    }
    expect(prizeProof(tree, "0x0000000000000000000000000000000000000001")).toBeNull();
  });

  it("hashes two leaves into the root the contract recomputes", () => {
    const tree = buildPrizeTree(
      1,
      [
        { userId: "7", amountMicro: 1_000_000n },
        { userId: "8", amountMicro: 2n },
      ],
      new Map([
        ["7", A],
        ["8", B],
      ]),
    );
    expect(tree.root).toBe(pair(leafHash(1, A, 1_000_000n), leafHash(1, B, 2n)));
    expect(prizeProof(tree, B)).toEqual([leafHash(1, A, 1_000_000n)]);
  });

  it("has no root without a leaf", () => {
    expect(buildPrizeTree(2, [{ userId: "1", amountMicro: 5n }], new Map([["1", null]]))).toEqual({
      week: 2,
      root: null,
      totalMicro: 0n,
      leaves: [],
      awaitingWallet: [{ userId: "1", amountMicro: 5n }],
      carried: [],
    });
  });

  it("carries earlier awaiting prizes of users who now have a wallet into their leaf, and only those", () => {
    // Week 5: user 1 wins 10 and also had 7 awaiting from week 2 and 3 from week 4; user 9 won nothing this
    // week but had 4 awaiting from week 3; user 8 still has no wallet (their 6 of week 2 stays awaiting).
    const tree = buildPrizeTree(
      5,
      [{ userId: "1", amountMicro: 10n }],
      new Map([
        ["1", A],
        ["9", B],
        ["8", null],
      ]),
      [
        { fromWeek: 2, userId: "1", amountMicro: 7n },
        { fromWeek: 2, userId: "8", amountMicro: 6n },
        { fromWeek: 3, userId: "9", amountMicro: 4n },
        { fromWeek: 4, userId: "1", amountMicro: 3n },
      ],
    );
    expect(tree.leaves).toEqual([
      { userId: "1", account: getAddress(A), amountMicro: 20n, carriedMicro: 10n },
      { userId: "9", account: B, amountMicro: 4n, carriedMicro: 4n },
    ]);
    expect(tree.totalMicro).toBe(24n);
    expect(tree.carried).toEqual([
      { fromWeek: 2, userId: "1", amountMicro: 7n },
      { fromWeek: 3, userId: "9", amountMicro: 4n },
      { fromWeek: 4, userId: "1", amountMicro: 3n },
    ]);
    expect(tree.awaitingWallet).toEqual([]);
  });
});

describe("carriedFromWeek", () => {
  it("names, for each awaiting prize of a week, the later week whose tree carried it", () => {
    // Week 1 left users 1 and 3 awaiting; week 4's tree carried user 1's, week 6's user 3's; week 6 also carried
    // user 2's prize of week 4, which is not week 1's.
    const trees = [
      {
        week: 6,
        carried: [
          { fromWeek: 1, userId: "3", amountMicro: 8n },
          { fromWeek: 4, userId: "2", amountMicro: 9n },
        ],
      },
      { week: 1, carried: [] },
      { week: 4, carried: [{ fromWeek: 1, userId: "1", amountMicro: 5n }] },
    ];
    expect(carriedFromWeek(trees, 1)).toEqual(
      new Map([
        ["3", 6],
        ["1", 4],
      ]),
    );
    expect(carriedFromWeek(trees, 4)).toEqual(new Map([["2", 6]]));
    expect(carriedFromWeek(trees, 6)).toEqual(new Map());
    expect(carriedFromWeek([], 1)).toEqual(new Map());
  });
});

describe("outstandingArrears", () => {
  it("is every awaiting prize not yet carried by any tree, oldest week first", () => {
    expect(
      outstandingArrears([
        {
          week: 4,
          awaitingWallet: [{ userId: "2", amountMicro: 9n }],
          carried: [{ fromWeek: 1, userId: "1", amountMicro: 5n }],
        },
        {
          week: 1,
          awaitingWallet: [
            { userId: "1", amountMicro: 5n },
            { userId: "3", amountMicro: 8n },
          ],
          carried: [],
        },
      ]),
    ).toEqual([
      { fromWeek: 1, userId: "3", amountMicro: 8n },
      { fromWeek: 4, userId: "2", amountMicro: 9n },
    ]);
  });

  it("refuses one wallet holding two prizes", () => {
    expect(() =>
      buildPrizeTree(
        1,
        [
          { userId: "1", amountMicro: 1n },
          { userId: "2", amountMicro: 1n },
        ],
        new Map([
          ["1", A],
          ["2", A.toUpperCase().replace("0X", "0x")],
        ]),
      ),
    ).toThrow(/holds two prizes/);
  });
});
