/**
 * The bench's own reference, independent of the service's ranking code: every player's competitive SP of the live
 * week from SQL over the ledger (dataset.ts `ledgerWeekSp`) plus what the bench wrote, ordered and ranked here
 * (SP descending, then user id; rank = 1 + players with more SP), and the comparison of what the service serves
 * against it (`checkService`).
 */
import { BENCH_SEASON } from "./dataset.js";
import { fetchJson } from "./service.js";

const W = BENCH_SEASON.liveWeek;
const log = (s: string) => process.stderr.write(`${s}\n`);

/** [start, end) of week `w` ≥ 1 of the bench season: week one's start + (w − 1) weeks, seven days long. */
export function benchWeekBounds(w: number): { start: Date; end: Date } {
  const start = new Date(Date.parse(BENCH_SEASON.weekOneStart) + (w - 1) * 7 * 86_400_000);
  return { start, end: new Date(start.getTime() + 7 * 86_400_000) };
}

export interface LadderEntry {
  userId: string;
  sp: number;
}

/** Ranked players (SP > 0) in ladder order: SP descending, then user id ascending (numerically). */
export function sortLadder(sp: Map<string, number>): LadderEntry[] {
  return [...sp]
    .filter(([, v]) => v > 0)
    .map(([userId, v]) => ({ userId, sp: v }))
    .sort((a, b) => b.sp - a.sp || Number(a.userId) - Number(b.userId));
}

/** Number of differing entries between two SP maps (zero entries count as absent); logs the first few. */
export function compareMaps(label: string, a: Map<string, number>, b: Map<string, number>): number {
  let diff = 0;
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    if ((a.get(id) ?? 0) !== (b.get(id) ?? 0)) {
      if (diff < 5) log(`  ${label}: user ${id} has ${a.get(id) ?? 0} vs ${b.get(id) ?? 0}`);
      diff++;
    }
  }
  if (diff > 0) log(`  ${label}: ${diff} users differ`);
  return diff;
}

/**
 * Compares what the service serves with the reference: Qualification pages at several offsets (the top, the
 * cutoff line with its ties, a quarter, the middle, the end), `total` and `cutoffSp`, the whole Champions
 * ladder (each row's SP from the reference, ranks consistent with those SPs), and `/me` of every sampled player
 * (rank and SP in both ladders). Returns the number of mismatches.
 */
export async function checkService(
  base: string,
  reference: Map<string, number>,
  sessions: Array<[number, string]>,
  label: string,
): Promise<number> {
  const ladder = sortLadder(reference);
  const sorted = ladder.map((e) => e.sp);
  const countAbove = (sp: number) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! > sp) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const rankOf = (sp: number) => (sp > 0 ? 1 + countAbove(sp) : null);
  let bad = 0;
  const miss = (what: string) => {
    if (bad < 10) log(`  ${label}: ${what}`);
    bad++;
  };
  const cutoffSp = sorted[24] ?? null;
  const lastAtCutoff = cutoffSp === null ? 0 : countAbove(cutoffSp - 1);
  const offsets = [
    0,
    Math.max(0, lastAtCutoff - 50),
    Math.floor(ladder.length / 4),
    Math.floor(ladder.length / 2),
    Math.max(0, ladder.length - 100),
  ];
  for (const offset of offsets) {
    const page = (await fetchJson(`${base}/api/competition/leaderboard?week=${W}&offset=${offset}&limit=100`))
      .data;
    if (page.total !== ladder.length) miss(`total ${page.total} ≠ ${ladder.length}`);
    if (page.cutoffSp !== cutoffSp) miss(`cutoffSp ${page.cutoffSp} ≠ ${cutoffSp}`);
    const expected = ladder.slice(offset, offset + 100);
    if (page.rows.length !== expected.length)
      miss(`page @${offset}: ${page.rows.length} rows ≠ ${expected.length}`);
    page.rows.forEach((row: { userId: string; competitiveSp: number; rank: number }, i: number) => {
      const e = expected[i];
      if (!e || row.userId !== e.userId || row.competitiveSp !== e.sp || row.rank !== rankOf(e.sp))
        miss(
          `page @${offset} row ${i}: ${JSON.stringify(row)} ≠ ${JSON.stringify(e)} rank ${e && rankOf(e.sp)}`,
        );
    });
  }
  let champions: Array<{ userId: string; competitiveSp: number; rank: number }> = [];
  for (let offset = 0; ; offset += 100) {
    const page = (
      await fetchJson(
        `${base}/api/competition/leaderboard?week=${W}&type=champions&offset=${offset}&limit=100`,
      )
    ).data;
    champions = champions.concat(page.rows);
    if (page.rows.length < 100) break;
  }
  const champSp = champions.map((r) => reference.get(r.userId) ?? 0);
  champions.forEach((row, i) => {
    const sp = champSp[i]!;
    const rank = 1 + champSp.filter((x) => x > sp).length;
    if (row.competitiveSp !== sp || row.rank !== rank)
      miss(`champions ${JSON.stringify(row)}: sp ${sp} rank ${rank}`);
    if (
      i > 0 &&
      (champSp[i - 1]! < sp ||
        (champSp[i - 1] === sp && Number(champions[i - 1]!.userId) > Number(row.userId)))
    )
      miss(`champions out of order at ${i}`);
  });
  for (let i = 0; i < sessions.length; i += 25) {
    await Promise.all(
      sessions.slice(i, i + 25).map(async ([id, cookie]) => {
        const body = await fetchJson(`${base}/api/competition/me?week=${W}`, { headers: { cookie } });
        const sp = reference.get(String(id)) ?? 0;
        const { qualification: q, champions: c } = body.data;
        if (q.rank !== rankOf(sp) || q.competitiveSp !== sp || c.competitiveSp !== sp)
          miss(`me ${id}: ${JSON.stringify(q)} ≠ sp ${sp} rank ${rankOf(sp)}`);
        const inChampions = champions.find((r) => r.userId === String(id));
        if ((c.rank ?? null) !== (inChampions?.rank ?? null)) miss(`me ${id}: champions rank ${c.rank}`);
      }),
    );
  }
  log(
    `  ${label}: checked ${offsets.length} pages, ${champions.length} Champions rows, ${sessions.length} /me: ${bad} mismatches`,
  );
  return bad;
}
