/**
 * A database handle whose transactions run a hook once, around the first statement (sent with `execute`) whose SQL
 * text matches `when`: to replay a race at an exact point of a use case's transaction. `before` runs (awaited) just
 * before that statement, `after` just after it.
 */
import type { Db } from "../src/db/client.js";

export interface StatementHook {
  when: (sqlText: string) => boolean;
  before?: () => Promise<void>;
  after?: () => Promise<void>;
}

/** The SQL text of a drizzle `sql` object (its literal chunks; parameters left out). */
function textOf(query: { queryChunks?: unknown[] }): string {
  return (query.queryChunks ?? [])
    .map((c) => (typeof c === "object" && c !== null && "value" in c ? String(c.value) : ""))
    .join("");
}

export function withStatementHook(db: Db, hook: StatementHook): Db {
  let done = false;
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== "transaction") return Reflect.get(target, prop, receiver);
      const transaction = target.transaction.bind(target) as (...args: unknown[]) => Promise<unknown>;
      return (work: (tx: unknown) => Promise<unknown>, ...rest: unknown[]) =>
        transaction(
          async (tx: Record<string | symbol, unknown>) => {
            const execute = (tx.execute as (q: unknown) => Promise<unknown>).bind(tx);
            const watched = new Proxy(tx, {
              get(inner, p, r) {
                if (p !== "execute") return Reflect.get(inner, p, r);
                return async (query: { queryChunks?: unknown[] }) => {
                  const hit = !done && hook.when(textOf(query));
                  if (hit) done = true;
                  if (hit) await hook.before?.();
                  const result = await execute(query);
                  if (hit) await hook.after?.();
                  return result;
                };
              },
            });
            return work(watched);
          },
          ...rest,
        );
    },
  }) as Db;
}
