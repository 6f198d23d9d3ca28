/**
 * A player's CLI commands (`sign-in`, `bet`, `claim`, …) and the admin's `clock`: HTTP calls to a running server
 * through the typed SDK (@sp/sdk), exactly as any other client of the API. `sign-in` keeps the session cookie in
 * the session file (session-file.ts); the other player commands send it.
 *
 * The server is `--url`, else the one holding the embedded DATA_DIR (the URL its lock advertises), else
 * `http://<HOST>:<PORT>` of the configuration (127.0.0.1 when HOST listens everywhere). A local server checks the
 * sign-in message against the same configuration, so the CLI signs for SIWE_DOMAIN there; any other server names
 * its own domain (the SDK's default). Every command gives up after 30 s.
 */
import { randomUUID } from "node:crypto";
import { createSpClient, ok, SpApiError, type SpClient, signInWithWallet, signOut } from "@sp/sdk";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../config.js";
import { lockHolder } from "../db/data-dir-lock.js";
import { AppError } from "../errors.js";
import type { ClientCommand } from "./arguments.js";
import { forgetSession, loadSession, saveSession } from "./session-file.js";

export interface ClientContext {
  config: Config;
  /** The session file (session-file.ts `sessionFilePath()`). */
  sessionFile: string;
}

const TIMEOUT_MS = 30_000;

/** The server a command calls (see the top of this file). */
export function serverUrlOf(config: Config, cmd: { url?: string }): string {
  if (cmd.url) return cmd.url;
  const holder = config.databaseUrl === null ? lockHolder(config.dataDir) : null;
  if (holder?.url) return holder.url;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

async function signedInClient(ctx: ClientContext, url: string, signal: AbortSignal): Promise<SpClient> {
  const stored = await loadSession(ctx.sessionFile, url);
  if (!stored) {
    throw new AppError("UNAUTHENTICATED", `Not signed in to ${url}: run npm run cli -- sign-in --key 0x…`);
  }
  return createSpClient({ baseUrl: url, session: stored.cookie, signal });
}

export async function runClientCommand(ctx: ClientContext, cmd: ClientCommand): Promise<unknown> {
  const url = serverUrlOf(ctx.config, cmd);
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  try {
    return await run(ctx, cmd, url, signal);
  } catch (err) {
    if (err instanceof SpApiError && err.code === "UNAUTHENTICATED" && cmd.command !== "clock") {
      throw new AppError(
        "UNAUTHENTICATED",
        `${err.message}: the session for ${url} is missing, expired or revoked; sign in again (npm run cli -- sign-in --key 0x…)`,
      );
    }
    if (err instanceof SpApiError) throw err;
    if (err instanceof AppError) throw err;
    // fetch failed (nothing listens there, DNS, TLS) or the 30 s ran out.
    const why =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `No answer from ${url} (${why}): start the server (npm start) or name it with --url`,
    );
  }
}

async function run(
  ctx: ClientContext,
  cmd: ClientCommand,
  url: string,
  signal: AbortSignal,
): Promise<unknown> {
  switch (cmd.command) {
    case "sign-in": {
      const sp = createSpClient({ baseUrl: url, signal });
      // The server names the domain to sign for (the Host it was reached at, when accepted).
      const user = await signInWithWallet(sp, privateKeyToAccount(cmd.key), {
        ...(cmd.referralCode === undefined ? {} : { referralCode: cmd.referralCode }),
      });
      if (sp.session.cookie === null) throw new AppError("INTERNAL", "The server set no session cookie");
      const savedAt = new Date().toISOString();
      await saveSession(ctx.sessionFile, url, {
        cookie: sp.session.cookie,
        userId: user.id,
        wallet: user.wallet,
        savedAt,
      });
      return { user, server: url, sessionFile: ctx.sessionFile };
    }
    case "sign-out": {
      const stored = await loadSession(ctx.sessionFile, url);
      if (stored) {
        await signOut(createSpClient({ baseUrl: url, session: stored.cookie, signal }));
        await forgetSession(ctx.sessionFile, url);
      }
      return { signedOut: stored !== null, server: url };
    }
    case "whoami": {
      const sp = await signedInClient(ctx, url, signal);
      return (await ok(sp.GET("/api/auth/session"))).user;
    }
    case "events": {
      const sp = createSpClient({ baseUrl: url, signal });
      return ok(sp.GET("/api/available-events", { params: { query: cmd.query } }));
    }
    case "bet": {
      const sp = await signedInClient(ctx, url, signal);
      // One key per command: a retry of this very request inside the SDK cannot place a second bet.
      const header = { "idempotency-key": randomUUID() };
      return ok(sp.POST("/api/pred2earn/bet-placed", { params: { header }, body: cmd.body }));
    }
    case "predictions": {
      const sp = await signedInClient(ctx, url, signal);
      return ok(sp.GET("/api/user/predictions", { params: { query: cmd.query } }));
    }
    case "claim": {
      const sp = await signedInClient(ctx, url, signal);
      return ok(sp.POST("/api/pred2earn/claim-payout", { body: { predictionId: cmd.predictionId } }));
    }
    case "me": {
      const sp = await signedInClient(ctx, url, signal);
      const query = cmd.week === undefined ? {} : { week: cmd.week };
      return ok(sp.GET("/api/competition/me", { params: { query } }));
    }
    case "clock": {
      const admin = createSpClient({
        baseUrl: url,
        signal,
        headers: { authorization: `Bearer ${ctx.config.adminToken}` },
      });
      return ok(admin.PUT("/api/admin/clock", { body: { now: cmd.now } }));
    }
  }
}
