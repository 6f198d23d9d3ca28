/**
 * The typed SDK (packages/sdk) against a real server on a port: its README's quickstart (sign in with a wallet,
 * list events, bet, /me) runs as written, type-checked by `npm run typecheck` with no type cast, then the rest of a
 * player's first hour through the same client: the admin settles (the test clock past kickoff), the player claims,
 * an error arrives as a typed SpApiError, sign-out forgets the session, a saved session resumes. OIDC sign-in runs
 * against a local issuer. Hand-computed: 1,000 welcome credits − 100 staked = 900; a win at 2.15 pays 215 and
 * earns 215 SP in the kickoff's week.
 */
import { readFileSync } from "node:fs";
import { createSpClient, ok, SpApiError, sessionFromSetCookie, signInWithOidc, signOut } from "@sp/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickstart } from "../packages/sdk/examples/quickstart.js";
import { createTestApp, type TestApp, testKey } from "./app.js";
import { buildEventBody, KICKOFF } from "./factories.js";
import { freePort } from "./free-port.js";
import { startTestIssuer, type TestIssuer } from "./oidc-issuer.js";

const QUICKSTART = new URL("../packages/sdk/examples/quickstart.ts", import.meta.url);
const README = new URL("../packages/sdk/README.md", import.meta.url);

/** The type casts (`x as T`) of TypeScript code, comments and double-quoted strings left out. */
function castsIn(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  return code.match(/\bas\s+[A-Za-z{[(]\w*/g) ?? [];
}

let t: TestApp;
let baseUrl: string;
let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await startTestIssuer({ now: () => t.clock.now() });
  const port = await freePort();
  t = await createTestApp({
    env: {
      PORT: String(port),
      SIWE_DOMAIN: `127.0.0.1:${port}`,
      ...issuer.env,
    },
  });
  await t.app.listen({ port, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

const admin = () => createSpClient({ baseUrl, headers: { authorization: "Bearer test-admin-token" } });

describe("the SDK's quickstart", () => {
  it("is the README's code, with no type cast", () => {
    const code = readFileSync(QUICKSTART, "utf8");
    expect(readFileSync(README, "utf8")).toContain(code.trim());
    const lines = code.trim().split("\n").length;
    expect(lines).toBeLessThanOrEqual(25);
    // No `as` cast, no `any`, no @ts- comment: the types flow from the document to the last field. Nor in the
    // SDK's own code, nor in this test.
    expect(code).not.toMatch(/\bany\b|@ts-/);
    for (const file of [
      QUICKSTART,
      new URL("../packages/sdk/src/client.ts", import.meta.url),
      new URL("../packages/sdk/src/sign-in.ts", import.meta.url),
      new URL(import.meta.url),
    ]) {
      expect(castsIn(readFileSync(file, "utf8")), file.pathname).toEqual([]);
    }
    // The count works: it sees a cast, and not a comment.
    expect(castsIn("// as good\n/* as said */ const n = (x as number) + (y as unknown as Foo);")).toEqual([
      "as number",
      "as unknown",
      "as Foo",
    ]);
  });

  it("signs in, lists events, bets and reads /me; then settles, claims and signs out through the same client", async () => {
    await ok(
      admin().PUT("/api/admin/events/{id}", {
        params: { path: { id: "sdk-1" } },
        body: buildEventBody({ kickoffAt: KICKOFF }),
      }),
    );

    const { sp, user, event, prediction, balance, me } = await quickstart(baseUrl, testKey(1));
    expect(user.wallet).toBe("0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF"); // the address of private key 2
    expect(sp.session.cookie).toMatch(/^session=[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(event.id).toBe("sdk-1");
    expect(prediction).toMatchObject({
      eventId: "sdk-1",
      market: "1x2",
      outcome: "home",
      odds: 2.15,
      stake: 100,
    });
    expect(prediction.status).toBe("open");
    expect(balance).toBe(900);
    expect(me.week).toBe(2);
    expect(me.qualification).toEqual({ rank: null, competitiveSp: 0, withinCutoff: false });

    // The admin moves the test clock past kickoff and settles the event: the bet won.
    await ok(admin().PUT("/api/admin/clock", { body: { now: "2026-11-25T20:00:00Z" } }));
    const settled = await ok(
      admin().POST("/api/admin/events/{id}/result", {
        params: { path: { id: "sdk-1" } },
        body: { status: "finished", winningOutcome: "home" },
      }),
    );
    expect(settled.settled).toBe(1);

    const claim = await ok(sp.POST("/api/pred2earn/claim-payout", { body: { predictionId: prediction.id } }));
    expect(claim).toMatchObject({ predictionId: prediction.id, payout: 215, balance: 1115 });
    const week3 = await ok(sp.GET("/api/competition/me", { params: { query: { week: 3 } } }));
    expect(week3.qualification).toEqual({ rank: 1, competitiveSp: 215, withinCutoff: true });

    // A refusal is a typed error: the code of the envelope, its status and message.
    const again = await ok(
      sp.POST("/api/pred2earn/claim-payout", { body: { predictionId: prediction.id } }),
    ).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(SpApiError);
    expect(again).toMatchObject({ status: 409, code: "ALREADY_CLAIMED" });

    // A saved session resumes in a new client; signing out revokes it everywhere.
    const resumed = createSpClient({ baseUrl, session: sp.session.cookie });
    expect((await ok(resumed.GET("/api/auth/session"))).user.id).toBe(user.id);
    await signOut(sp);
    expect(sp.session.cookie).toBeNull();
    const { error, response } = await resumed.GET("/api/auth/session");
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ success: false, status: 401, code: "UNAUTHENTICATED" });
  });

  it("signs in with an OIDC ID token", async () => {
    const sp = createSpClient({ baseUrl });
    const user = await signInWithOidc(sp, await issuer.token("sdk-user", t.clock.now(), { name: "Ada" }));
    expect(user).toMatchObject({ displayName: "Ada", wallet: null });
    expect((await ok(sp.GET("/api/auth/session"))).user.id).toBe(user.id);
  });
});

describe("sessionFromSetCookie", () => {
  it("keeps the session cookie a sign-in sets, forgets a cleared one, ignores others", () => {
    expect(sessionFromSetCookie("session=abc.def.ghi; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax")).toBe(
      "session=abc.def.ghi",
    );
    expect(sessionFromSetCookie("session=; Max-Age=0; Path=/")).toBeNull();
    expect(sessionFromSetCookie("session=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT")).toBeNull();
    expect(sessionFromSetCookie("theme=dark; Path=/")).toBeUndefined();
  });
});
