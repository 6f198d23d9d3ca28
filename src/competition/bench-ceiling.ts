/**
 * GET /bench/ceiling (only with BENCH_CEILING=on): a fixed ~5 KB ladder-like body through the same envelope and
 * schema serializer as the ladder route, so the benchmark measures the server's own ceiling in the same run.
 */
import type { FastifyInstance } from "fastify";
import { ok, okSchema } from "../http/envelope.js";
import { LeaderboardResponse } from "./schema.js";

export async function benchCeilingRoute(app: FastifyInstance): Promise<void> {
  const body = ok({
    week: 10,
    type: "qualification",
    label: "Week 10",
    championsEnabled: true,
    provisional: true,
    total: 1_000_000,
    offset: 0,
    limit: 50,
    cutoffRank: 25,
    cutoffSp: 4210,
    rows: Array.from({ length: 50 }, (_, i) => ({
      rank: i + 1,
      userId: String(100_000 + i),
      displayName: `0x1234…${String(1000 + i)}`,
      wallet: `0x${(0xabcdef0000 + i).toString(16).padStart(40, "0")}`,
      competitiveSp: 10_000 - i * 10,
      withinCutoff: i < 25,
      prizeUsdc: null,
    })),
  });
  app.get(
    "/bench/ceiling",
    { schema: { hide: true, response: { 200: okSchema(LeaderboardResponse) } } },
    async () => body,
  );
}
