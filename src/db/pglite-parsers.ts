/**
 * Drizzle's PGlite driver passes the same type parsers with every query (timestamps, dates, intervals and their
 * arrays kept as text, which drizzle's columns then map), and PGlite merges them into its own table of ≈ 320
 * parsers for each query it answers. That merge cost more than the query: `select 1` took 101–134 µs of CPU
 * without the option and 213–311 µs with it (docs/performance.md, "Session 16"). So the embedded client is
 * given those parsers as its own (`OWN_PARSERS`), and `withoutRepeatedParsers` drops a query's `parsers`
 * option when it asks only for what the client already does: the same rows, parsed the same way, without the merge.
 */
import {
  type ParserOptions,
  type PGlite,
  type QueryOptions,
  type Transaction,
  types,
} from "@electric-sql/pglite";

const asText = (value: string) => value;

/** What drizzle-orm/pglite asks of every query: these types (and their arrays) returned as the text PGlite read. */
export const OWN_PARSERS: ParserOptions = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

/** The text each of `OWN_PARSERS`' stand-ins is tried on: a parser that returns it unchanged keeps text as text. */
const SAMPLE = "2026-11-27 17:09:00+00";

/**
 * `options` without its `parsers` when the client already parses each of those types as asked: each parser given
 * returns the text it is given, and the client's own parser for that type is `OWN_PARSERS`' (PGlite replaces the
 * array types' parsers when it reloads its types, and a query then keeps its option). Otherwise `options` unchanged.
 */
export function ownParsersDropped(
  clientParsers: ParserOptions,
  options: QueryOptions | undefined,
): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers) return options;
  for (const [oid, parse] of Object.entries(parsers)) {
    const own = OWN_PARSERS[Number(oid)];
    if (own === undefined || clientParsers[Number(oid)] !== own || parse(SAMPLE, Number(oid)) !== SAMPLE)
      return options;
  }
  const { parsers: _dropped, ...rest } = options;
  return rest;
}

/**
 * Makes the ready `client` parse `OWN_PARSERS`' types as drizzle asks, and drop that repeated request from its
 * queries and its transactions' queries.
 */
export async function withoutRepeatedParsers(client: PGlite): Promise<void> {
  await client.waitReady;
  Object.assign(client.parsers, OWN_PARSERS);
  // The same wrapper for the client's queries and each transaction's.
  const dropping = <Q extends PGlite["query"]>(query: Q) =>
    ((text: string, params?: unknown[], options?: QueryOptions) =>
      query(text, params, ownParsersDropped(client.parsers, options))) as Q;
  client.query = dropping(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      tx.query = dropping(tx.query.bind(tx));
      return callback(tx);
    })) as typeof client.transaction;
}
