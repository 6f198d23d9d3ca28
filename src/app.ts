/**
 * buildApp(deps) → the Fastify instance with every plugin and route. The server and the tests build the same app.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { adminRoutes } from "./admin/routes.js";
import { oidcVerifier } from "./auth/oidc.js";
import { signInProviders } from "./auth/providers.js";
import { authRoutes } from "./auth/routes.js";
import { SessionCache } from "./auth/session-cache.js";
import type { AuthDeps } from "./auth/sign-in.js";
import {
  chainInfoDeps,
  feeProgress,
  onchainBetDeps,
  prizeDistributorOf,
  quoteDeps,
} from "./chain/chain-deps.js";
import { chainRoutes } from "./chain/routes.js";
import { cliIdentityRoute, cliRoutes } from "./cli/routes.js";
import type { AdjustableClock } from "./clock.js";
import type { Season } from "./competition/calendar.js";
import type { CompetitionDeps } from "./competition/competition-deps.js";
import { RankCache } from "./competition/rank-cache/rank-cache.js";
import { competitionRoutes } from "./competition/routes.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { eventRoutes } from "./events/routes.js";
import { benchCeilingRoute } from "./http/bench-ceiling.js";
import { clientErrorHandler, frameworkErrors, registerEnvelope } from "./http/envelope.js";
import { healthRoutes } from "./http/health.js";
import { registerMetrics } from "./http/metrics.js";
import { registerOpenApi } from "./http/openapi.js";
import { registerRateLimit } from "./http/rate-limit.js";
import { registerSecurityHeaders } from "./http/security-headers.js";
import { registerSession } from "./http/session.js";
import { registerShutdownGate } from "./http/shutdown.js";
import { staticRoutes } from "./http/static.js";
import { registerValidation } from "./http/validation.js";
import { leaderboardRoutes } from "./leaderboard/routes.js";
import { predictionRoutes } from "./predictions/routes.js";
import { profileRoutes } from "./profile/routes.js";
import { rewardRoutes } from "./rewards/routes.js";

export interface AppDeps {
  config: Config;
  database: Database;
  clock: AdjustableClock;
  /** Shared store for rate-limit counters; null keeps them in process memory. */
  redis?: Redis | null;
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
    logger: { level: config.logLevel },
    bodyLimit: 64 * 1024,
    trustProxy: false,
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
  registerShutdownGate(app);
  await registerSecurityHeaders(app, { production: config.env === "production" });
  registerMetrics(app);
  await registerOpenApi(app);

  const season: Season = { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart };
  const db = database.db;
  const secureCookie = config.env === "production";
  const auth: AuthDeps = {
    db,
    clock,
    sessions: new SessionCache(db, database.changeCount),
    jwtKey: new TextEncoder().encode(config.jwtSecret),
    siweDomain: config.siweDomain,
    siweChainIds: config.siweChainIds,
    appOrigins: config.appOrigins,
    welcomeCredits: config.welcomeCredits,
    oidc: config.oidc ? oidcVerifier(config.oidc) : null,
  };
  const competition: CompetitionDeps = {
    db,
    bulkDb: database.bulkDb,
    clock,
    season,
    incentiveMicro: config.protocolIncentiveMicro,
    cache: config.rankCache ? new RankCache(db, database.changeCount, database.bulkDb) : null,
    feesIndexedThrough: feeProgress(config, db),
    prizeDistributor: prizeDistributorOf(config),
  };

  await registerSession(app, { auth, appOrigins: config.appOrigins, secureCookie });
  await registerRateLimit(app, { config, redis: deps.redis ?? null, jwtKey: auth.jwtKey, clock });
  await app.register(healthRoutes, { ping: database.ping });
  if (config.benchCeiling) await app.register(benchCeilingRoute);
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
      spPerUsdc: config.spPerUsdc,
      rafflePrizeSp: config.rafflePrizeSp,
    },
  });
  await app.register(cliRoutes, { ctx: { database, config, clock } });
  await app.register(cliIdentityRoute, { ctx: { database, config, clock } });
  await app.register(eventRoutes, { deps: { db, clock } });
  await app.register(leaderboardRoutes, { deps: { db } });
  await app.register(profileRoutes, { deps: competition });
  await app.register(rewardRoutes, {
    referrals: { db, season, rewardSp: config.referralRewardSp },
    raffle: { db, clock, season, prizeSp: config.rafflePrizeSp },
    daily: { db, clock, amount: config.dailyCredits },
  });
  await app.register(predictionRoutes, {
    deps: onchainBetDeps(config, db, clock, app.log),
    quotes: quoteDeps(config, db, clock),
  });
  await app.register(chainRoutes, { deps: chainInfoDeps(config) });
  // Last: the web app's catch-all GET route (unknown /api routes still answer the JSON 404).
  await app.register(staticRoutes);
  return app;
}
