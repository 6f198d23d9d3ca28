/**
 * buildApp(deps) → the Fastify instance with every plugin and route. The server and the tests build the same app.
 */
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Redis } from "ioredis";
import { adminRoutes } from "./admin/routes.js";
import { competitionDepsFor } from "./app-deps.js";
import { oidcVerifier } from "./auth/oidc.js";
import { SignInOrigins } from "./auth/origins.js";
import { signInProviders } from "./auth/providers.js";
import { authRoutes } from "./auth/routes.js";
import { registerSession, sessionCookieUserId } from "./auth/session.js";
import { SessionCache } from "./auth/session-cache.js";
import type { AuthDeps } from "./auth/sign-in.js";
import { chainInfoDeps, onchainBetDeps, quoteDeps } from "./chain/chain-deps.js";
import { configuredIndexers, indexerLags } from "./chain/indexer-health.js";
import { chainRoutes } from "./chain/routes.js";
import { cliIdentityRoute, cliRoutes } from "./cli/routes.js";
import type { AdjustableClock } from "./clock.js";
import { lastFinalizedWeek } from "./competition/auto-finalize.js";
import type { CompetitionDeps } from "./competition/competition-deps.js";
import { RankCache } from "./competition/rank-cache/rank-cache.js";
import { competitionRoutes } from "./competition/routes.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import type { Faucet } from "./demo/faucet.js";
import { demoRoutes } from "./demo/routes.js";
import { eventRoutes } from "./events/routes.js";
import { registerCaching, tagEncodedBodies } from "./http/caching.js";
import { registerCompression } from "./http/compression.js";
import { registerCors } from "./http/cors.js";
import { clientErrorHandler, frameworkErrors, registerEnvelope } from "./http/envelope.js";
import { healthRoutes } from "./http/health.js";
import { registerMetrics } from "./http/metrics.js";
import { registerOpenApi } from "./http/openapi.js";
import { registerRateLimit } from "./http/rate-limit.js";
import { registerRequestLog, requestIdOf } from "./http/request-log.js";
import { registerSecurityHeaders } from "./http/security-headers.js";
import { registerShutdownGate } from "./http/shutdown.js";
import { staticRoutes } from "./http/static.js";
import { registerValidation } from "./http/validation.js";
import { leaderboardRoutes } from "./leaderboard/routes.js";
import { spAppendGroup } from "./ledger/record-sp-transaction.js";
import { betGroup } from "./predictions/place-bet.js";
import { reconcileRoutes } from "./predictions/reconcile-routes.js";
import { predictionRoutes } from "./predictions/routes.js";
import { profileRoutes } from "./profile/routes.js";
import { rewardRoutes } from "./rewards/routes.js";
import type { Season } from "./shared/season.js";
import { streamRoutes } from "./stream/routes.js";
import { webhookRoutes } from "./webhooks/routes.js";

export interface AppDeps {
  config: Config;
  database: Database;
  clock: AdjustableClock;
  /** Shared store for rate-limit counters; null keeps them in process memory. */
  redis?: Redis | null;
  /** `npm run demo` only: the demo chain's faucet (POST /api/demo/faucet); absent elsewhere, so that route is 404. */
  demo?: { faucet: Faucet } | null;
  /** Where log lines go (JSON lines); default stdout. Tests read them from here. */
  logStream?: { write(line: string): void };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Which rate-limit class a route belongs to (read, write, auth, finalize). */
    rateClass?: "read" | "write" | "auth" | "finalize";
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, clock } = deps;
  const app = Fastify({
    logger: { level: config.logLevel, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    // Our own request id and one line per request (http/request-log.ts) instead of Fastify's two.
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
    trustProxy: config.trustProxy,
    // Router errors (bad percent-encoding, over-long path parameters) answer the envelope; a path id of a few
    // thousand characters reaches its route's schema and gets a 400 naming the field.
    frameworkErrors,
    // What Node's HTTP parser refuses (oversized headers: 431) answers the envelope as well.
    clientErrorHandler,
    routerOptions: { maxParamLength: 8192 },
    return503OnClosing: false,
  });
  registerValidation(app);

  registerEnvelope(app);
  registerRequestLog(app);
  registerShutdownGate(app);
  registerSecurityHeaders(app, { production: config.env === "production" });
  // The default domains and origins follow the port actually listened on (PORT=0 picks one at listen time).
  const origins = new SignInOrigins(config, () => {
    const address = app.server.address();
    return address && typeof address === "object" ? address.port : config.port;
  });
  // Before the rate limit and the session check: a preflight is answered here, uncounted.
  await registerCors(app, { allowedOrigins: () => origins.origins() });
  // In this order: the ETag of the JSON body and the 304 first, then compression, then the coding in the ETag.
  registerCaching(app);
  await registerCompression(app);
  tagEncodedBodies(app);
  // Before every documented route: @fastify/swagger documents the routes added after it.
  await registerOpenApi(app);
  const season: Season = { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart };
  const db = database.db;
  registerMetrics(app, {
    token: config.metricsToken,
    lastFinalizedWeek: () => lastFinalizedWeek({ db }),
    indexerLags: () => indexerLags({ db, clock }, configuredIndexers(config)),
    poolStats: database.poolStats,
  });

  const secureCookie = config.env === "production";
  const auth: AuthDeps = {
    db,
    clock,
    sessions: new SessionCache(db, database.changeCount),
    jwtKey: new TextEncoder().encode(config.jwtSecret),
    origins,
    siweChainIds: config.siweChainIds,
    welcomeCredits: config.welcomeCredits,
    oidc: config.oidc ? oidcVerifier(config.oidc) : null,
  };
  const competition: CompetitionDeps = competitionDepsFor(
    config,
    database,
    clock,
    config.rankCache ? new RankCache(db, database.changeCount, database.bulkDb) : null,
  );

  await registerSession(app, { auth, secureCookie });
  await registerRateLimit(app, {
    config,
    redis: deps.redis ?? null,
    writerOf: sessionCookieUserId(auth.jwtKey, clock),
  });
  await app.register(healthRoutes, {
    ping: database.ping,
    redisPing: deps.redis ? () => deps.redis!.ping() : null,
    indexerLags: () => indexerLags({ db, clock }, configuredIndexers(config)),
    maxLagSeconds: config.indexerMaxLagSeconds,
  });
  await app.register(authRoutes, { auth, providers: signInProviders(config), secureCookie });
  await app.register(competitionRoutes, { deps: competition, finalizeSecret: config.finalizeSecret });
  await app.register(adminRoutes, {
    deps: {
      db,
      bulkDb: database.bulkDb,
      clock,
      season,
      adminToken: config.adminToken,
      testClock: config.testClock,
      welcomeCredits: config.welcomeCredits,
      spAppends: spAppendGroup({ db, season, welcomeCredits: config.welcomeCredits }),
      spPerUsdc: config.spPerUsdc,
      rafflePrizeSp: config.rafflePrizeSp,
    },
  });
  await app.register(cliRoutes, { ctx: { database, config, clock } });
  await app.register(webhookRoutes, {
    deps: { db, requirePublicHttps: config.env === "production" },
    adminToken: config.adminToken,
  });
  await app.register(cliIdentityRoute, { ctx: { database, config, clock } });
  await app.register(eventRoutes, { deps: { db, clock } });
  await app.register(leaderboardRoutes, { deps: { db } });
  await app.register(profileRoutes, { deps: competition });
  await app.register(rewardRoutes, {
    referrals: { db, season, rewardSp: config.referralRewardSp },
    raffle: { db, clock, season, prizeSp: config.rafflePrizeSp },
    daily: { db, clock, amount: config.dailyCredits },
  });
  const onchainBets = onchainBetDeps(config, db, clock, app.log);
  await app.register(predictionRoutes, {
    deps: onchainBets,
    quotes: quoteDeps(config, db, clock),
    bets: betGroup(db),
  });
  await app.register(reconcileRoutes, { deps: onchainBets, adminToken: config.adminToken });
  await app.register(chainRoutes, { deps: chainInfoDeps(config) });
  if (deps.demo) await app.register(demoRoutes, { faucet: deps.demo.faucet });
  await app.register(streamRoutes, { database, redis: deps.redis ?? null, config });
  // Last: the web app's catch-all GET route (unknown /api routes still answer the JSON 404).
  await app.register(staticRoutes);
  return app;
}
