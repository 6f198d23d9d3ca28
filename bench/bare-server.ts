/**
 * The bench's ceiling: a bare Fastify process (no plugins, no hooks, no database) answering the service's read
 * paths with fixed bodies — the exact bytes the service answered for one real ladder page and one real `/me`,
 * fetched by the bench just before (file named by BARE_BODIES: JSON `{ ladder, me }`, base64). Started as its own
 * child process by `bench/service.ts` (startBare), on PORT; prints `ready` once listening.
 */
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const bodies = JSON.parse(readFileSync(process.env.BARE_BODIES!, "utf8")) as { ladder: string; me: string };
const ladder = Buffer.from(bodies.ladder, "base64");
const me = Buffer.from(bodies.me, "base64");
const app = Fastify({ logger: false });
const json = "application/json; charset=utf-8";
app.get("/api/competition/leaderboard", (_request, reply) => {
  reply.type(json).send(ladder);
});
app.get("/api/competition/me", (_request, reply) => {
  reply.type(json).send(me);
});
app.get("/readyz", (_request, reply) => {
  reply.send("ok");
});
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.on("SIGTERM", () => {
  app.close().then(() => process.exit(0));
});
