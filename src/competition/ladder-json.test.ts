import fc from "fast-check";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok, okSchema } from "../http/envelope.js";
import type { LadderPage, LiveLadderPage } from "./get-ladder-page.js";
import { liveLadderJson } from "./ladder-json.js";
import { presentLeaderboard } from "./presenters.js";
import { PageDisplay } from "./rank-cache/display-cache.js";
import { type DisplayInfo, DisplayStore } from "./rank-cache/display-store.js";
import { withinCutoff } from "./ranking.js";
import { LeaderboardResponse } from "./schema.js";

/** A user of a test page: in the display store, or held as an entry (loaded after the store, or stale there). */
interface PageUser extends DisplayInfo {
  userId: string;
  sp: number;
  rank: number;
  inStore: boolean;
}

const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const frame = {
  week: 10,
  type: "qualification" as const,
  championsEnabled: true,
  provisional: true,
  total: 123_456,
  offset: 40,
  limit: 50,
  cutoffRank: 25,
  cutoffSp: 900,
};

/**
 * The page as the display cache hands it to the writer, and the same page as row objects with the display data
 * the old path read (`DisplayStore.get`: a name as stored, so a lone surrogate comes back as U+FFFD).
 */
function pages(users: PageUser[]): { live: LiveLadderPage; objects: LadderPage } {
  const stored = users.flatMap((u, i) => (u.inStore ? [{ ...u, id: i + 1 }] : []));
  const store = new DisplayStore(stored.length, 64);
  store.append(stored);
  store.seal();
  const found = users.map((u, i) =>
    u.inStore ? store.find(i + 1) : { displayName: u.displayName, wallet: u.wallet },
  );
  const shown = users.map((u, i) => (u.inStore ? store.get(i + 1)! : u));
  const entries = users.map((u) => ({ userId: u.userId, sp: u.sp, rank: u.rank }));
  return {
    live: { ...frame, live: { entries, display: new PageDisplay(store, found) } },
    objects: {
      ...frame,
      rows: users.map((u, i) => ({
        rank: u.rank,
        userId: u.userId,
        displayName: shown[i]!.displayName,
        wallet: shown[i]!.wallet,
        competitiveSp: u.sp,
        withinCutoff: withinCutoff(u.rank, frame.cutoffRank),
        prizeMicro: null,
      })),
    },
  };
}

// The route's serializer, as the leaderboard route has it: the same response schema in the same envelope.
const app = Fastify();
let current: { live: LiveLadderPage; objects: LadderPage };
app.get("/bytes", { schema: { response: { 200: okSchema(LeaderboardResponse) } } }, (_req, reply) =>
  reply
    .type("application/json; charset=utf-8")
    .send(liveLadderJson(current.live, (f) => reply.serialize(ok(presentLeaderboard(f))) as string)),
);
app.get("/objects", { schema: { response: { 200: okSchema(LeaderboardResponse) } } }, () =>
  ok(presentLeaderboard(current.objects)),
);
beforeAll(() => app.ready());
afterAll(() => app.close());

async function bodies(users: PageUser[]): Promise<{ written: Buffer; serialized: Buffer }> {
  current = pages(users);
  const [written, serialized] = await Promise.all([app.inject("/bytes"), app.inject("/objects")]);
  return { written: written.rawPayload, serialized: serialized.rawPayload };
}

const user = (over: Partial<PageUser>, i: number): PageUser => ({
  userId: String(1000 + i),
  displayName: `Player ${i}`,
  wallet: WALLET,
  sp: 500 - i,
  rank: 41 + i,
  inStore: true,
  ...over,
});

describe("liveLadderJson (a live page's body written from the display store)", () => {
  it("writes the bytes the response schema's serializer writes, names that need escaping included", async () => {
    const names = [
      'Quote "Q"',
      "back\\slash",
      "line\nbreak\ttab",
      "nul\u0000",
      "Zoë Ω",
      "emoji 🚀",
      "lone \ud800 surrogate",
      "\u2028sep",
      "",
    ];
    const users = names.flatMap((displayName, i) => [
      user({ displayName, inStore: true }, 2 * i),
      user({ displayName, inStore: false, wallet: null }, 2 * i + 1),
    ]);
    const { written, serialized } = await bodies(users);
    expect(written.equals(serialized)).toBe(true);
    const parsed = JSON.parse(written.toString("utf8"));
    // The names as stored: a lone surrogate is stored (UTF-8) as U+FFFD; an entry's name is sent as it is.
    expect(parsed.data.rows[0]).toEqual({
      rank: 41,
      userId: "1000",
      displayName: 'Quote "Q"',
      wallet: WALLET,
      competitiveSp: 500,
      withinCutoff: false,
      prizeUsdc: null,
    });
    expect(parsed.data.rows[12].displayName).toBe("lone \ufffd surrogate");
    expect(parsed.data.rows[13].displayName).toBe("lone \ud800 surrogate");
    expect(parsed.data.rows.map((r: { wallet: string | null }) => r.wallet).slice(0, 2)).toEqual([
      WALLET,
      null,
    ]);
  });

  it("writes an empty page, and ties and the cutoff line as the serializer does", async () => {
    expect((await bodies([])).written.equals((await bodies([])).serialized)).toBe(true);
    const tied = [24, 25, 25, 27].map((rank, i) => user({ rank, sp: 1_000_000 - rank }, i));
    const { written, serialized } = await bodies(tied);
    expect(written.equals(serialized)).toBe(true);
    const rows = JSON.parse(written.toString("utf8")).data.rows;
    expect(rows.map((r: { withinCutoff: boolean }) => r.withinCutoff)).toEqual([true, true, true, false]);
  });

  it("equals the serializer's bytes for any names, wallets and places (property)", async () => {
    const pageUser = fc.record({
      displayName: fc.oneof(
        fc.string({ unit: "binary", maxLength: 24 }),
        fc.string({
          unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
          maxLength: 12,
        }),
      ),
      wallet: fc.option(fc.constant(WALLET), { nil: null }),
      sp: fc.integer({ min: -1_000_000, max: 2_000_000_000 }),
      rank: fc.integer({ min: 1, max: 2_000_000 }),
      inStore: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(pageUser, { maxLength: 12 }), async (drawn) => {
        const { written, serialized } = await bodies(drawn.map((u, i) => ({ ...u, userId: String(7 + i) })));
        expect(written.toString("hex")).toBe(serialized.toString("hex"));
      }),
      { numRuns: 150 },
    );
  });
});
