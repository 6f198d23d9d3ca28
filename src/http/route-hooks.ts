/**
 * Route-level onSend hooks added to every route registered after the call. A route's own onSend hooks run after
 * every app-wide one, in the order they were added: the way a hook takes a place relative to a plugin's own
 * route-level hook (@fastify/compress adds its onSend this way).
 */
import type { FastifyInstance, onSendHookHandler } from "fastify";

export function addRouteOnSend(app: FastifyInstance, hook: onSendHookHandler): void {
  app.addHook("onRoute", (route) => {
    const existing = route.onSend;
    route.onSend =
      existing === undefined ? [hook] : Array.isArray(existing) ? [...existing, hook] : [existing, hook];
  });
}
