/**
 * Load phases of the bench (autocannon): each runs a warm-up (discarded), then the measured load; every client
 * request carries an `x-forwarded-for` address from a pool of CLIENT_ADDRESSES (the service trusts its loopback
 * proxy), so the per-IP rate limits see many clients as in production. Any non-2xx answer or socket error is
 * recorded in `failures` (the run exits 1).
 */
import autocannon from "autocannon";

export type AcRequest = Parameters<
  NonNullable<NonNullable<Parameters<typeof autocannon>[0]["requests"]>[number]["setupRequest"]>
>[0];
export type LoadOptions = Parameters<typeof autocannon>[0];
export type LoadResult = Awaited<ReturnType<typeof autocannon>>;

/** Distinct client addresses the load comes from (10.0.0.0/16). */
export const CLIENT_ADDRESSES = 20_000;
let nextAddress = 0;
/** The next client address of the pool. */
export function clientAddress(): string {
  const n = nextAddress++ % CLIENT_ADDRESSES;
  return `10.0.${n >> 8}.${n & 255}`;
}

/** Failures of the run so far: one line per load phase with non-2xx answers or errors. */
export const failures: string[] = [];

const log = (s: string) => process.stderr.write(`${s}\n`);

/** `requests` with each request's `x-forwarded-for` set, after the request's own setup. */
function spread(requests: NonNullable<LoadOptions["requests"]>): NonNullable<LoadOptions["requests"]> {
  return requests.map((r) => ({
    ...r,
    setupRequest: (req: AcRequest, context: Record<string, unknown>) => {
      const set = r.setupRequest ? r.setupRequest(req, context) : req;
      return { ...set, headers: { ...set.headers, "x-forwarded-for": clientAddress() } };
    },
  }));
}

/**
 * One measured load named `name`: `warmupSec` of the same load first (not measured), then `seconds`. The
 * requests default to a GET of `opts.url`.
 */
export async function load(
  name: string,
  opts: LoadOptions & { requests: NonNullable<LoadOptions["requests"]> },
  timing: { seconds: number; warmupSec: number; connections?: number },
): Promise<LoadResult> {
  const base = { connections: timing.connections ?? 50, ...opts, requests: spread(opts.requests) };
  if (timing.warmupSec > 0) {
    const warm = await autocannon({ ...base, duration: timing.warmupSec });
    check(`${name} (warm-up)`, warm);
  }
  const r = await autocannon({ ...base, duration: opts.duration ?? timing.seconds });
  check(name, r);
  log(
    `  ${name}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx, ${r.errors} errors`,
  );
  return r;
}

function check(name: string, r: LoadResult): void {
  if (r.non2xx > 0 || r.errors > 0) {
    const line = `${name}: ${r.non2xx} non-2xx answers and ${r.errors} errors`;
    failures.push(line);
    log(`  FAIL ${line}`);
  }
}
