/**
 * The body of a live Qualification page (`LiveLadderPage`) written as bytes: the frame (envelope, week, totals) by
 * the route's own serializer with no rows, then each row straight from the ranked entries and the display store's
 * bytes, with no row objects, display strings or serializer in between (docs/performance.md, "Session 13"). The
 * bytes equal what the response schema's serializer writes for the same page (ladder-json.test.ts compares them
 * byte for byte, names that need escaping included).
 */
import { JsonBytes } from "../http/json-bytes.js";
import type { LadderPage, LiveLadderPage } from "./get-ladder-page.js";
import { withinCutoff } from "./ranking.js";

/** Where the rows go in the serialized frame: the envelope ends with the page's `rows`, its last member. */
const EMPTY_ROWS_END = '"rows":[]}}';

/** One scratch buffer: a body is written in one synchronous call, then copied out. */
const out = new JsonBytes();

/**
 * The page's JSON body. `serializeFrame` is the route's serializer of a page in its envelope; it is given the page
 * without rows and must end with the rows (`…"rows":[]}}`), as LeaderboardResponse orders its members.
 */
export function liveLadderJson(page: LiveLadderPage, serializeFrame: (frame: LadderPage) => string): Buffer {
  const { live, ...frame } = page;
  const head = serializeFrame({ ...frame, rows: [] });
  if (!head.endsWith(EMPTY_ROWS_END))
    throw new Error("a ladder page's serialized frame must end with its rows");
  out.utf8(head.slice(0, -3));
  const { entries, display } = live;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!display.has(i)) throw new Error(`ladder user ${e.userId} has no display data`);
    // LadderRow's members in the schema's order; a qualification row has no prize.
    out.ascii(i === 0 ? '{"rank":' : ',{"rank":');
    out.ascii(String(e.rank));
    out.ascii(',"userId":');
    out.string(e.userId);
    out.ascii(',"displayName":');
    display.writeName(i, out);
    out.ascii(',"wallet":');
    display.writeWallet(i, out);
    out.ascii(',"competitiveSp":');
    out.ascii(String(e.sp));
    out.ascii(withinCutoff(e.rank, page.cutoffRank) ? ',"withinCutoff":true' : ',"withinCutoff":false');
    out.ascii(',"prizeUsdc":null}');
  }
  out.ascii("]}}");
  return out.take();
}
