/**
 * A player's CLI commands (client-commands.ts) against a listening test server: sign-in keeps the session in a
 * 0600 file per server, the player's commands use it, sign-out revokes and forgets it; without a session, against
 * no server, or with a revoked session each fails with one line naming what to do; the server's remote CLI
 * endpoint refuses them (they call an API, they do not run in the server). The whole walkthrough, through the
 * real command line, is test/readme-walkthrough.db.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, type TestApp } from "../../test/app.js";
import { buildEventBody } from "../../test/factories.js";
import { freePort } from "../../test/free-port.js";
import { type ClientCommand, parseCommandLine } from "./arguments.js";
import { runClientCommand, serverUrlOf } from "./client-commands.js";
import { errorLine } from "./output.js";
import { loadSession, sessionFilePath } from "./session-file.js";

const KEY = `0x${"0".repeat(62)}2a`;
let t: TestApp;
let url: string;
let dir: string;
let sessionFile: string;

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ env: { PORT: String(port), SIWE_DOMAIN: `localhost:${port}` } });
  await t.app.listen({ port, host: "127.0.0.1" });
  url = `http://127.0.0.1:${port}`;
  dir = mkdtempSync(join(tmpdir(), "cli-client-"));
  sessionFile = sessionFilePath({ XDG_CONFIG_HOME: dir });
  const ev = await call(t.app, {
    method: "PUT",
    url: "/api/admin/events/cli-1",
    headers: ADMIN,
    payload: buildEventBody(),
  });
  expect(ev.status).toBe(201);
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => {
  const cmd = parseCommandLine(argv);
  return runClientCommand({ config: t.config, sessionFile }, cmd as ClientCommand);
};
const failure = (argv: string[]) =>
  cli(...argv).then(
    () => "no failure",
    (err: unknown) => errorLine(err),
  );

describe("a player's CLI commands", () => {
  it("call the configured server by default: 127.0.0.1 and PORT", () => {
    expect(serverUrlOf(t.config, {})).toBe(url);
    expect(serverUrlOf({ ...t.config, host: "0.0.0.0" }, {})).toBe(url);
    expect(serverUrlOf(t.config, { url: "https://api.example.com" })).toBe("https://api.example.com");
  });

  it("refuse a player's command before sign-in, with the command that fixes it", async () => {
    expect(await failure(["whoami"])).toBe(
      `UNAUTHENTICATED: Not signed in to ${url}: run npm run cli -- sign-in --key 0x…`,
    );
  });

  it("sign in, keep the session in a 0600 file, bet, list predictions, sign out", async () => {
    const signedIn = (await cli("sign-in", "--key", KEY)) as { user: { id: string; wallet: string } };
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "sp-cli")).mode & 0o777).toBe(0o700);
    const stored = await loadSession(sessionFile, url);
    expect(stored).toMatchObject({ userId: signedIn.user.id, wallet: signedIn.user.wallet });
    expect(stored?.cookie).toMatch(/^session=/);

    expect(await cli("whoami")).toEqual(signedIn.user);
    const bet = (await cli(
      "bet",
      "--event",
      "cli-1",
      "--market",
      "1x2",
      "--outcome",
      "draw",
      "--stake",
      "40",
      "--odds",
      "3.4",
    )) as { balance: number; prediction: { status: string } };
    expect(bet.balance).toBe(960);
    expect(bet.prediction.status).toBe("open");
    // The price moved: a typed refusal, one line.
    expect(
      await failure([
        "bet",
        "--event",
        "cli-1",
        "--market",
        "1x2",
        "--outcome",
        "draw",
        "--stake",
        "1",
        "--odds",
        "3",
      ]),
    ).toMatch(/^ODDS_CHANGED: /);
    const page = (await cli("predictions")) as { items: Array<{ stake: number }>; nextCursor: string | null };
    expect(page.items.map((p) => p.stake)).toEqual([40]);

    expect(await cli("sign-out")).toEqual({ signedOut: true, server: url });
    expect(await loadSession(sessionFile, url)).toBeNull();
    expect(await cli("sign-out")).toEqual({ signedOut: false, server: url });
  });

  it("say so when a kept session was revoked", async () => {
    await cli("sign-in", "--key", KEY);
    const content = JSON.parse(readFileSync(sessionFile, "utf8"));
    // Revoked elsewhere: the server no longer accepts it.
    const cookie = content.sessions[url].cookie as string;
    const out = await call(t.app, { method: "POST", url: "/api/auth/logout", headers: { cookie } });
    expect(out.status).toBe(200);
    expect(await failure(["me"])).toMatch(
      new RegExp(`^UNAUTHENTICATED: Sign in first: the session for ${url} is missing, expired or revoked`),
    );
  });

  it("name the server that does not answer", async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    expect(await failure(["events", "--url", nobody])).toMatch(
      new RegExp(`^SERVICE_UNAVAILABLE: No answer from ${nobody} \\(.*\\): start the server \\(npm start\\)`),
    );
  });

  it("move the test clock as the admin", async () => {
    expect(await cli("clock", "--now", "2026-11-21T08:00:00Z")).toEqual({ now: "2026-11-21T08:00:00.000Z" });
    expect(t.clock.now().toISOString()).toBe("2026-11-21T08:00:00.000Z");
  });

  it("ignore a damaged session file (a sign-in rewrites it)", async () => {
    writeFileSync(sessionFile, "{ not json");
    expect(await loadSession(sessionFile, url)).toBeNull();
    await cli("sign-in", "--key", KEY);
    expect((await loadSession(sessionFile, url))?.cookie).toMatch(/^session=/);
  });

  it("are refused by the server's remote CLI endpoint: they call an API", async () => {
    const res = await call(t.app, {
      method: "POST",
      url: "/api/admin/cli",
      headers: ADMIN,
      payload: { argv: ["whoami"] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_FAILED", error: "whoami runs in the CLI only" });
  });
});
