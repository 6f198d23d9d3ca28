/**
 * Security headers on every response (helmet): a Content-Security-Policy the web page (web/, built by Vite: its
 * own scripts and styles only) runs under, `frame-ancestors 'none'` (no framing, clickjacking), Referrer-Policy,
 * `X-Content-Type-Options: nosniff`; HSTS only in production (a development server on http must not pin browsers
 * to https). Styles allow 'unsafe-inline' for the API docs UI; scripts never run inline.
 *
 * Helmet computes the headers once, at start-up: they depend on nothing in a request (no CSP nonces). The Fastify
 * plugin (@fastify/helmet) built helmet's middleware again for every request, parsing the policy each time: 5 %
 * of the CPU of a cheap read (docs/performance.md).
 */
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

function options(production: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
      },
    },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The page may open wallet pop-ups and identity sign-in windows.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
  };
}

/** The headers helmet sets for this policy, read once from its middleware. */
export function securityHeaders(production: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options(production))({} as never, response as never, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, opts: { production: boolean }): void {
  const headers = securityHeaders(opts.production);
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers(headers);
  });
}
