/**
 * Several instances (issue 7): two real service processes (`node --import tsx src/server.ts`) on one fresh
 * PostgreSQL database and one Redis, driven over HTTP. Shows that migrations at a simultaneous start run once, that
 * a ledger row written through one instance is in the other's ranks within a second, that concurrent finalize calls
 * on both finalize once, that the rate limits are one budget, and that a session logged out on one instance is
 * refused by the other, which had it cached. PostgreSQL pass with REDIS_URL only.
 *
 * Season: week 0 runs Mon 2026-11-02 .. Tue 2026-11-10; its event kicks off Thu 2026-11-05.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { once } from "node:events";
import { readdirSync } from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signSessionToken } from "../src/auth/session-token.js";
import { createScratchPostgres } from "./db.js";
import { buildEventBody } from "./factories.js";
import { freePorts } from "./free-port.js";
import { nodeArgs } from "./service-bundle.js";

const ADMIN_TOKEN = "multi-instance-admin-token";
const FINALIZE_SECRET = "multi-instance-finalize-secret";
const JWT_SECRET = "multi-instance-jwt-secret-0123456789abcdef";
/** Reads carrying the admin bearer skip the rate limits, so only the rate-limit test spends the read budget. */
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const READ_LIMIT = 5;
/** The advisory lock key db/client.ts takes around migrations (MIGRATION_LOCK_KEY). */
const MIGRATION_LOCK_KEY = 727_001;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MIGRATION_FILES = readdirSync(`${ROOT}src/db/migrations`).filter((f) => f.endsWith(".sql")).length;

interface Instance {
  name: string;
  base: string;
  child: ChildProcess;
  /** The process's stdout and stderr, for failure messages. */
  output: string[];
}

interface Reply {
  status: number;
  body: any;
  headers: http.IncomingHttpHeaders;
}

/** One HTTP request; `localAddress` picks the client's source address (the read limit's key). */
function request(
  base: string,
  method: "GET" | "POST" | "PUT",
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown; localAddress?: string } = {},
): Promise<Reply> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers = { ...opts.headers, ...(payload ? { "content-type": "application/json" } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, base),
      { method, headers, localAddress: opts.localAddress, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          let body: any = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** `data` of a 2xx answer; throws with the body otherwise. */
async function data(base: string, method: "GET" | "POST" | "PUT", path: string, body?: unknown) {
  const res = await request(base, method, path, { headers: ADMIN, body });
  if (res.status >= 300)
    throw new Error(`${method} ${base}${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

function startInstance(name: string, port: number, databaseUrl: string): Instance {
  const child = spawn(process.execPath, nodeArgs("src/server.ts"), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      PORT: String(port),
      HOST: "127.0.0.1",
      TEST_CLOCK: "1",
      // These tests race manual finalize calls; the automatic finalize has tests of its own.
      AUTO_FINALIZE: "false",
      ADMIN_TOKEN,
      FINALIZE_SECRET,
      JWT_SECRET,
      CHAMPIONS_SEASON_START_ISO: "2026-11-02T00:00:00.000Z",
      CHAMPIONS_WEEK_ONE_START_ISO: "2026-11-10T00:00:00.000Z",
      LOG_LEVEL: "warn",
      RATE_LIMIT_READ_PER_MIN: String(READ_LIMIT),
      RATE_LIMIT_WRITE_PER_MIN: "1000000",
      RATE_LIMIT_AUTH_PER_MIN: "1000000",
      RATE_LIMIT_FINALIZE_PER_MIN: "1000000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { name, base: `http://127.0.0.1:${port}`, child, output };
}

async function waitReady(instance: Instance, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null) {
      throw new Error(
        `${instance.name} exited with ${instance.child.exitCode}:\n${instance.output.join("")}`,
      );
    }
    const res = await request(instance.base, "GET", "/readyz").catch(() => null);
    if (res?.status === 200) return;
    await sleep(100);
  }
  throw new Error(`${instance.name} not ready after ${timeoutMs} ms:\n${instance.output.join("")}`);
}

async function stopInstance(instance: Instance): Promise<void> {
  const { child } = instance;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` passes or `timeoutMs` runs out; returns the milliseconds it took and the reads made. */
async function within(timeoutMs: number, check: () => Promise<boolean>) {
  const started = performance.now();
  let reads = 1;
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) break;
    await sleep(10);
    reads++;
  }
  return { ms: performance.now() - started, reads };
}

/** Week 0's Qualification ladder as an instance serves it: `userId:sp` in ladder order, and `provisional`. */
async function ladderOf(instance: Instance) {
  const page = await data(instance.base, "GET", "/api/competition/leaderboard?week=0&limit=100");
  return {
    provisional: page.provisional as boolean,
    total: page.total as number,
    rows: (page.rows as Array<{ rank: number; userId: string; competitiveSp: number }>).map(
      (r) => `${r.rank}:${r.userId}:${r.competitiveSp}`,
    ),
  };
}

const wallet = (i: number) => `0x${i.toString(16).padStart(40, "a")}`;
let externalIds = 0;

/** One PREDICTION row on week 0's event, written through `instance`; returns the user id. */
async function addSp(instance: Instance, walletIndex: number, amount: number): Promise<string> {
  const row = await data(instance.base, "POST", "/api/admin/sp-transactions", {
    wallet: wallet(walletIndex),
    type: "PREDICTION",
    amount,
    eventId: "mi-w0",
    externalId: `mi-${++externalIds}`,
  });
  return row.userId as string;
}

const setClock = (instance: Instance, now: string) => data(instance.base, "PUT", "/api/admin/clock", { now });

describe.skipIf(process.env.TEST_DB !== "postgres" || !process.env.REDIS_URL)(
  "two service processes on one PostgreSQL and one Redis",
  () => {
    let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
    let a: Instance;
    let b: Instance;
    let waitersSeen = 0;

    beforeAll(async () => {
      scratch = await createScratchPostgres();
      // Hold the migration lock while both processes start, and let go once both wait on it: they then reach
      // the migrations at the same moment however their start-up times differ.
      const holder = new pg.Client({ connectionString: scratch.url });
      await holder.connect();
      try {
        await holder.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        const [portA, portB] = (await freePorts(2)) as [number, number];
        a = startInstance("A", portA, scratch.url);
        b = startInstance("B", portB, scratch.url);
        // Generous: two tsx start-ups share the CPU with the rest of the suite.
        const deadline = Date.now() + 75_000;
        while (waitersSeen < 2 && Date.now() < deadline) {
          for (const i of [a, b]) {
            if (i.child.exitCode !== null) throw new Error(`${i.name} exited:\n${i.output.join("")}`);
          }
          const res = await holder.query<{ n: number }>(
            `select count(*)::int as n from pg_locks
             where locktype = 'advisory' and classid = 0 and objid = $1 and not granted`,
            [MIGRATION_LOCK_KEY],
          );
          waitersSeen = res.rows[0]!.n;
          if (waitersSeen < 2) await sleep(50);
        }
      } finally {
        await holder.end();
      }
      await Promise.all([waitReady(a, 30_000), waitReady(b, 30_000)]);
    });

    afterAll(async () => {
      await Promise.all([a, b].filter(Boolean).map(stopInstance));
      await scratch?.drop();
    });

    it("migrates once when both start together: both ready, every migration recorded once", async () => {
      expect(waitersSeen).toBe(2); // both were blocked on the migration lock at the same time
      for (const i of [a, b]) {
        expect((await request(i.base, "GET", "/readyz")).status).toBe(200);
        expect(i.child.exitCode).toBeNull();
      }
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const applied = await client.query<{ n: number; hashes: number }>(
          "select count(*)::int as n, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations",
        );
        expect(applied.rows[0]).toEqual({ n: MIGRATION_FILES, hashes: MIGRATION_FILES });
      } finally {
        await client.end();
      }
    });

    it("serves a row written through A in B's ranks within one second, before and after B loaded the week", async () => {
      await Promise.all([a, b].map((i) => setClock(i, "2026-11-06T12:00:00.000Z"))); // Fri, week 0
      await data(
        a.base,
        "PUT",
        "/api/admin/events/mi-w0",
        buildEventBody({ kickoffAt: "2026-11-05T18:00:00.000Z" }),
      );

      // B has never read week 0: its first read loads the week.
      const first = await addSp(a, 1, 100);
      const cold = await within(1000, async () => (await ladderOf(b)).rows.includes(`1:${first}:100`));
      expect((await ladderOf(b)).rows).toEqual([`1:${first}:100`]);

      // B holds week 0 in memory now: the next row must reach it through the change feed.
      const second = await addSp(a, 2, 250);
      const warm = await within(1000, async () => (await ladderOf(b)).rows.includes(`1:${second}:250`));
      expect((await ladderOf(b)).rows).toEqual([`1:${second}:250`, `2:${first}:100`]);
      const show = (p: { ms: number; reads: number }) => `${p.ms.toFixed(1)} ms (${p.reads} read(s) of B)`;
      console.info(`propagation A → B: week not loaded on B ${show(cold)}, loaded ${show(warm)}`);
      expect(cold.ms).toBeLessThan(1000);
      expect(warm.ms).toBeLessThan(1000);

      // Concurrent writes through both instances (new players, ties and updates of cached players): both
      // instances serve the same exact ladder as soon as the writes are acknowledged.
      const amounts = Array.from({ length: 24 }, (_, n) => ({
        player: 3 + (n % 12),
        amount: 10 * (1 + (n % 5)),
      }));
      await Promise.all([
        ...amounts.map((r, n) => addSp(n % 2 === 0 ? a : b, r.player, r.amount)),
        addSp(b, 1, 150),
      ]);
      const expected = new Map<number, number>([
        [1, 250],
        [2, 250],
      ]);
      for (const r of amounts) expected.set(r.player, (expected.get(r.player) ?? 0) + r.amount);
      const [onA, onB] = await Promise.all([ladderOf(a), ladderOf(b)]);
      expect(onB).toEqual(onA);
      expect(onB.total).toBe(expected.size);
      expect(onB.rows.map((r) => Number(r.split(":")[2]))).toEqual(
        [...expected.values()].sort((x, y) => y - x),
      );
    });

    it("finalizes once under concurrent finalize calls on both instances", async () => {
      // Different instants past the end of week 0: every answer carrying the winner's finalizedAt shows that the
      // losers served the stored result instead of computing their own.
      await setClock(a, "2026-11-10T06:00:00.000Z");
      await setClock(b, "2026-11-10T07:00:00.000Z");
      const finalize = (i: Instance) =>
        request(i.base, "POST", "/api/competition/finalize?week=0", {
          headers: { "x-competition-finalize-secret": FINALIZE_SECRET },
        });
      const answers = await Promise.all([a, b].flatMap((i) => Array.from({ length: 5 }, () => finalize(i))));
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(answers.filter((r) => r.body.data.alreadyFinalized === false)).toHaveLength(1);
      const results = answers.map((r) => {
        const { alreadyFinalized: _, ...result } = r.body.data;
        return result;
      });
      for (const result of results) expect(result).toEqual(results[0]);
      expect(["2026-11-10T06:00:00.000Z", "2026-11-10T07:00:00.000Z"]).toContain(results[0].finalizedAt);
      expect(results[0].qualification.participants).toBe(14);

      // Neither instance keeps serving its live ranks: both serve the same snapshot.
      const [onA, onB] = await Promise.all([ladderOf(a), ladderOf(b)]);
      expect(onA.provisional).toBe(false);
      expect(onB).toEqual(onA);
    });

    it("shares the read limit: 3 reads on A and 3 on B from one client → only the 6th is 429", async () => {
      // A client address of 127/8 no earlier run used; its counters are cleared first all the same. Only this
      // client's keys: other test files share the "sp-rl:" namespace and may be counting at this moment.
      const ip = `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `sp-rl:*:ip:${ip}`, "COUNT", 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
      } finally {
        await redis.quit();
      }
      const read = (i: Instance) =>
        request(i.base, "GET", "/api/competition/leaderboard?week=0", { localAddress: ip });
      const answers: Reply[] = [];
      for (const i of [a, a, a, b, b, b]) answers.push(await read(i));

      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers.map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["4", "3", "2", "1", "0", "0"]);
      const limited = answers[5]!;
      expect(limited.headers["x-ratelimit-limit"]).toBe(String(READ_LIMIT));
      expect(limited.body).toMatchObject({ success: false, status: 429, code: "RATE_LIMITED" });
      expect(typeof limited.body.error).toBe("string");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    });

    it("refuses on B a session B had cached, once A logged it out (and the other way round)", async () => {
      const userId = await addSp(a, 20, 5);
      const key = new TextEncoder().encode(JWT_SECRET);
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      const sessions: string[] = [];
      try {
        for (let n = 0; n < 2; n++) {
          const { token, claims } = await signSessionToken(key, userId, new Date("2026-11-10T00:00:00.000Z"));
          await client.query("insert into sessions (id, user_id, expires_at) values ($1, $2, $3)", [
            claims.sessionId,
            userId,
            claims.expiresAt,
          ]);
          sessions.push(`session=${token}`);
        }
      } finally {
        await client.end();
      }
      const me = (i: Instance, cookie: string) =>
        request(i.base, "GET", "/api/competition/me?week=0", { headers: { ...ADMIN, cookie } });
      const logout = (i: Instance, cookie: string) =>
        request(i.base, "POST", "/api/auth/logout", { headers: { cookie } });
      for (const [from, to, cookie] of [
        [a, b, sessions[0]!],
        [b, a, sessions[1]!],
      ] as const) {
        for (const i of [a, b]) expect((await me(i, cookie)).status).toBe(200); // both cache it now
        expect((await logout(from, cookie)).status).toBe(200);
        expect((await me(to, cookie)).status).toBe(401);
        expect((await me(from, cookie)).status).toBe(401);
      }
    });
  },
);
