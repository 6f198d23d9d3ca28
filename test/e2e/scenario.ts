/**
 * The known season the browser tests run against: the real app listening on a random port of 127.0.0.1 (PORT=0
 * semantics: the port is picked at listen time), with the default sign-in domains and app origins — which follow
 * the port listened on — seeded only through the admin API.
 *
 * Clock pinned at Fri 2026-11-20 12:00 UTC (week 2: Tue 2026-11-17 .. Tue 2026-11-24):
 * - Opening week (event Thu 2026-11-05): players 1..60 with 2000 − 10·i SP, players 25 and 26 tied at rank 25,
 *   so 26 players earn Champions Week 1. Fees 1000 USDC (funding Week 1).
 * - Week 1 (event Thu 2026-11-12): player i has 100 + 10·i SP, so Qualification is led by 60, 59, … and Champions
 *   (players 1..26) by 26, 25, …. Fees 2500.5 USDC (funding Week 2).
 * - Weeks 0 and 1 finalized. Week 2 (event Wed 2026-11-18, live): player i has 10 + 10·((37·i) mod 61) SP, all
 *   different; 35 players are in Week 2 Champions (Week 1 Qualification top 25: 36..60, Champions top 10: 17..26).
 *   Fees 40.25 USDC so far (funding Week 3). PROTOCOL_INCENTIVE_USDC = 100.
 * Player 60 is in Week 2 Champions; player 5 is not (but was in Week 1).
 */
import { privateKeyToAccount } from "viem/accounts";
import { ADMIN, call, createTestApp, FINALIZE, type TestApp, testKey } from "../app.js";
import { buildEventBody } from "../factories.js";

export const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
export const PLAYERS = 60;

/** The checksummed wallet of test player i (key `testKey(i)`). */
export const walletOf = (i: number) => privateKeyToAccount(testKey(i)).address;

async function admin(
  t: TestApp,
  method: "PUT" | "POST",
  url: string,
  payload?: object,
  headers: Record<string, string> = ADMIN,
) {
  const res = await call(t.app, { method, url, headers, ...(payload ? { payload } : {}) });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** GET an API URL in-process (as the player of `cookie`, when given); returns `data`. */
export async function apiData(t: TestApp, url: string, cookie?: string): Promise<any> {
  const res = await call(t.app, { method: "GET", url, headers: cookie ? { cookie } : {} });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const SP_OF_WEEK: Record<0 | 1 | 2, (i: number) => number> = {
  0: (i) => (i === 26 ? 2000 - 250 : 2000 - 10 * i),
  1: (i) => 100 + 10 * i,
  2: (i) => 10 + 10 * ((37 * i) % 61),
};

async function seed(t: TestApp): Promise<void> {
  const kickoffs = ["2026-11-05T18:00:00.000Z", "2026-11-12T18:00:00.000Z", "2026-11-18T18:00:00.000Z"];
  for (const [week, kickoffAt] of kickoffs.entries()) {
    await admin(t, "PUT", `/api/admin/events/e2e-w${week}`, buildEventBody({ kickoffAt }));
  }
  for (const week of [0, 1, 2] as const) {
    const rows = Array.from({ length: PLAYERS }, (_, n) => n + 1).map((i) =>
      admin(t, "POST", "/api/admin/sp-transactions", {
        wallet: walletOf(i),
        type: "PREDICTION",
        amount: SP_OF_WEEK[week](i),
        eventId: `e2e-w${week}`,
        externalId: `e2e-${week}-${i}`,
      }),
    );
    await Promise.all(rows);
  }
  const fees = [
    ["1000.000000", "2026-11-06T10:00:00.000Z"],
    ["2500.500000", "2026-11-13T10:00:00.000Z"],
    ["40.250000", "2026-11-18T10:00:00.000Z"],
  ] as const;
  for (const [n, [amountUsdc, occurredAt]] of fees.entries()) {
    await admin(t, "POST", "/api/admin/protocol-fees", {
      txHash: `0x${(n + 1).toString(16).padStart(64, "e")}`,
      logIndex: 0,
      amountUsdc,
      occurredAt,
    });
  }
  for (const week of [0, 1]) {
    await admin(t, "POST", `/api/competition/finalize?week=${week}`, undefined, FINALIZE);
  }
}

/**
 * One upcoming event of the play scenario: football has market "1x2" (home 2.15, draw 3.4, away 3.1), other
 * sports market "winner" (home 1.8, away 2.05).
 */
export function playEvent(sport: string, league: string, home: string, away: string, kickoffAt: string) {
  const markets =
    sport === "football"
      ? [
          {
            key: "1x2",
            outcomes: [
              { key: "home", label: home, odds: 2.15 },
              { key: "draw", label: "Draw", odds: 3.4 },
              { key: "away", label: away, odds: 3.1 },
            ],
          },
        ]
      : [
          {
            key: "winner",
            outcomes: [
              { key: "home", label: home, odds: 1.8 },
              { key: "away", label: away, odds: 2.05 },
            ],
          },
        ];
  return { sport, league, homeTeam: home, awayTeam: away, kickoffAt, markets };
}

const CLUBS = ["Arsenal", "Chelsea", "Liverpool", "Everton", "Fulham", "Brentford", "Wolves", "Burnley"];

/**
 * Upcoming events for the play pages: 12 football events (Premier League, then Serie A), from Sat 2026-11-21
 * 15:00 UTC, two hours apart, ids `play-fb-1` … `play-fb-12`; and 2 basketball events (NBA), ids `play-bb-1`,
 * `play-bb-2`, on Sun 2026-11-22 at 01:00 and 03:00 UTC.
 */
export async function seedPlayEvents(t: TestApp): Promise<void> {
  for (let n = 1; n <= 12; n++) {
    const kickoff = new Date(Date.parse("2026-11-21T15:00:00.000Z") + (n - 1) * 2 * 3600_000).toISOString();
    const home = CLUBS[(2 * n) % CLUBS.length]!;
    const away = CLUBS[(2 * n + 1) % CLUBS.length]!;
    const league = n <= 8 ? "Premier League" : "Serie A";
    await admin(
      t,
      "PUT",
      `/api/admin/events/play-fb-${n}`,
      playEvent("football", league, home, away, kickoff),
    );
  }
  await admin(
    t,
    "PUT",
    "/api/admin/events/play-bb-1",
    playEvent("basketball", "NBA", "Lakers", "Celtics", "2026-11-22T01:00:00.000Z"),
  );
  await admin(
    t,
    "PUT",
    "/api/admin/events/play-bb-2",
    playEvent("basketball", "NBA", "Knicks", "Bulls", "2026-11-22T03:00:00.000Z"),
  );
}

/** Sets an event through the admin API (create, or update its odds). */
export const putAdminEvent = (t: TestApp, id: string, body: object) =>
  admin(t, "PUT", `/api/admin/events/${id}`, body);

/** Settles an event through the admin API. */
export const settleEvent = (t: TestApp, id: string, winningOutcome: string) =>
  admin(t, "POST", `/api/admin/events/${id}/result`, { status: "finished", winningOutcome });

/**
 * Starts the seeded app over HTTP; `base` is its origin, e.g. http://127.0.0.1:41234. `env` adds configuration
 * (e.g. identity sign-in); `play` also seeds the upcoming events of seedPlayEvents; `beforeSeed` runs on the app
 * before the seeding (e.g. a first run of the chain indexers, so finalize finds the chain read).
 */
export async function startScenarioApp(
  opts: { env?: Record<string, string>; play?: boolean; beforeSeed?: (t: TestApp) => Promise<void> } = {},
): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp({
    now: NOW,
    env: { PORT: "0", PROTOCOL_INCENTIVE_USDC: "100", ...opts.env },
  });
  let port: number;
  try {
    await opts.beforeSeed?.(t);
    await seed(t);
    if (opts.play) await seedPlayEvents(t);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as { port: number }).port;
  } catch (err) {
    await t.close();
    throw err;
  }
  return { t, base: `http://127.0.0.1:${port}` };
}

/**
 * Stops the app. Keep-alive connections left by the browser's intercepted requests (Playwright's route.fetch)
 * are closed first, so closing does not wait for their idle timeout.
 */
export async function stopScenarioApp(t: TestApp | undefined): Promise<void> {
  if (!t) return;
  t.app.server.closeAllConnections();
  await t.close();
}
