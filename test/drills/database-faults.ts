/**
 * Drill: the database goes away under load and comes back, and the service survives it. A real server process
 * (`src/server.ts`) on a private PostgreSQL cluster (private-postgres.ts), reached through a TCP proxy
 * (tcp-proxy.ts), takes a steady load of acknowledged writes (POST /api/admin/sp-transactions, unique externalIds)
 * and /readyz polls while one fault happens:
 * - `restart`: `pg_ctl restart -m fast` (every connection terminated with 57P01, then refused, then accepted);
 * - `outage`: `pg_ctl stop -m fast`, 2 s down, `pg_ctl start`;
 * - `reset`: every connection between the service and the database cut with a TCP RST (ECONNRESET).
 *
 * What is promised, and checked here (a broken promise throws):
 * - the process stays up (no unhandled 'error' of a pg client or pool);
 * - every answer is 2xx or 503 (`SERVICE_UNAVAILABLE` with `retry-after`; /readyz `NOT_READY`), never 500;
 * - /readyz answers 503 while the database is down (outage) and 200 within 10 s after it is back;
 * - every write acknowledged (200/201) is in the database afterwards.
 */
import pg from "pg";
import { startTcpProxy } from "../tcp-proxy.js";
import { startPrivatePostgres } from "./private-postgres.js";
import { ADMIN_HEADERS, request, sleep, startServer, stopServer } from "./server-process.js";

export type DatabaseFault = "restart" | "outage" | "reset";

export interface DatabaseFaultResult {
  fault: DatabaseFault;
  writesSent: number;
  acknowledged: number;
  refused503: number;
  lost: number;
  /** ms from the database being back (the fault's command done) to /readyz 200. */
  readyAfterMs: number;
  /** /readyz answers that were 503 while the database was down (outage only). */
  readyz503WhileDown: number;
  maxAnswerMs: number;
}

/** Fails the drill with a message. */
function broken(why: string): never {
  throw new Error(`drill broken: ${why}`);
}

/**
 * Runs `faults` one after the other on one server and one cluster (the service must survive each, and then the
 * next), and returns the figures of each.
 */
export async function databaseFaultDrill(faults: DatabaseFault[]): Promise<DatabaseFaultResult[]> {
  const cluster = await startPrivatePostgres();
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: cluster.port });
  const proxiedUrl = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    server = await startServer({
      DATABASE_URL: proxiedUrl,
      DB_STATEMENT_TIMEOUT_MS: "2000",
      DB_CONNECT_TIMEOUT_MS: "1000",
      DATABASE_POOL_SIZE: "8",
    });
    const base = server.base;
    const alive = () => server!.child.exitCode === null && server!.child.signalCode === null;

    /** Figures of the fault under way (the load counts into the current one). */
    const empty = () => ({ sent: 0, refused503: 0, maxAnswerMs: 0, acknowledged: [] as string[] });
    let phase = empty();
    let loading = true;
    const failures: string[] = [];
    const writer = async (w: number) => {
      for (let i = 0; loading; i++) {
        const externalId = `drill-${w}-${i}`;
        const startedAt = performance.now();
        const counts = phase;
        counts.sent++;
        const res = await request(base, "POST", "/api/admin/sp-transactions", {
          headers: ADMIN_HEADERS,
          body: {
            wallet: `0x${(w + 1).toString(16).padStart(40, "0")}`,
            type: "ADJUSTMENT",
            amount: 1,
            externalId,
          },
        });
        counts.maxAnswerMs = Math.max(counts.maxAnswerMs, performance.now() - startedAt);
        if (res.status === 200 || res.status === 201) counts.acknowledged.push(externalId);
        else if (res.status === 503) {
          counts.refused503++;
          if (res.body?.code !== "SERVICE_UNAVAILABLE" || !res.headers.get("retry-after")) {
            failures.push(`503 without the envelope or retry-after: ${JSON.stringify(res.body)}`);
          }
          await sleep(50);
        } else failures.push(`write ${externalId}: ${res.status} ${res.error ?? JSON.stringify(res.body)}`);
      }
    };
    const readyz: Array<{ at: number; status: number }> = [];
    const poller = async () => {
      while (loading) {
        const res = await request(base, "GET", "/readyz", { timeoutMs: 5000 });
        readyz.push({ at: performance.now(), status: res.status });
        if (res.status !== 200 && res.status !== 503)
          failures.push(`/readyz ${res.status} ${res.error ?? ""}`);
        await sleep(100);
      }
    };
    const load = [0, 1, 2, 3].map(writer).concat(poller());
    await sleep(1000);

    const measured: Array<Omit<DatabaseFaultResult, "lost"> & { ids: string[] }> = [];
    for (const [index, fault] of faults.entries()) {
      phase = empty();
      let downFrom = 0;
      let downUntil = 0;
      if (fault === "restart") {
        await cluster.restart();
      } else if (fault === "outage") {
        await cluster.stop();
        downFrom = performance.now();
        await sleep(2000);
        downUntil = performance.now();
        await cluster.start();
      } else {
        proxy.reset();
      }
      const backAt = performance.now();
      let readyAt = 0;
      /** What /readyz answered after the database was back, for the failure message: ms, status, message. */
      const answers: string[] = [];
      while (performance.now() - backAt < 10_000) {
        const res = await request(base, "GET", "/readyz", { timeoutMs: 5000 });
        if (res.status === 200) {
          readyAt = performance.now();
          break;
        }
        answers.push(
          `${Math.round(performance.now() - backAt)} ms: ${res.status} ${res.error ?? res.body?.message ?? ""}`,
        );
        await sleep(50);
      }
      // Load goes on a while after recovery: the pool must serve again, not only /readyz.
      await sleep(1000);
      if (!alive()) broken(`the server exited during a database ${fault}:\n${server.output().slice(-3000)}`);
      if (readyAt === 0) {
        const shown = answers.length <= 8 ? answers : [...answers.slice(0, 5), "…", ...answers.slice(-3)];
        broken(
          `/readyz not 200 within 10 s after the database ${fault} (fault ${index + 1} of ${faults.length}); ` +
            `it answered ${shown.join("; ")}\n--- the server's output:\n${server.output().slice(-4000)}` +
            `\n--- the database's log:\n${cluster.logTail()}`,
        );
      }
      const whileDown = readyz.filter((r) => r.at > downFrom + 500 && r.at < downUntil);
      const readyz503WhileDown = whileDown.filter((r) => r.status === 503).length;
      if (fault === "outage" && (readyz503WhileDown === 0 || whileDown.some((r) => r.status === 200))) {
        broken(`/readyz while the database was down: ${whileDown.map((r) => r.status).join(",")}`);
      }
      if (phase.acknowledged.length === 0) broken(`no write acknowledged around the ${fault}`);
      measured.push({
        fault,
        writesSent: phase.sent,
        acknowledged: phase.acknowledged.length,
        refused503: phase.refused503,
        readyAfterMs: Math.round(readyAt - backAt),
        readyz503WhileDown,
        maxAnswerMs: Math.round(phase.maxAnswerMs),
        ids: phase.acknowledged,
      });
    }
    loading = false;
    await Promise.all(load);
    if (failures.length > 0)
      broken(`${failures.length} bad answers, e.g. ${failures.slice(0, 3).join("; ")}`);

    const check = new pg.Client({ connectionString: cluster.url });
    await check.connect();
    const stored = new Set(
      (await check.query<{ external_id: string }>("select external_id from sp_ledger")).rows.map(
        (r) => r.external_id,
      ),
    );
    await check.end();
    const results = measured.map(({ ids, ...m }) => ({
      ...m,
      lost: ids.filter((id) => !stored.has(id)).length,
    }));
    const lost = results.reduce((n, r) => n + r.lost, 0);
    if (lost > 0) broken(`${lost} acknowledged writes are not in the database: ${JSON.stringify(results)}`);
    return results;
  } finally {
    if (server) await stopServer(server, 15_000);
    await proxy.close().catch(() => {});
    cluster.destroy();
  }
}
