/**
 * Security headers on every response (@fastify/helmet): a Content-Security-Policy the web page (web/, built by
 * Vite: its own scripts and styles only) runs under, `frame-ancestors 'none'` (no framing, clickjacking),
 * Referrer-Policy, `X-Content-Type-Options: nosniff`; HSTS only in production (a development server on http must
 * not pin browsers to https). Styles allow 'unsafe-inline' for the API docs UI; scripts never run inline.
 */
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

export async function registerSecurityHeaders(
  app: FastifyInstance,
  opts: { production: boolean },
): Promise<void> {
  await app.register(helmet, {
    global: true,
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
    strictTransportSecurity: opts.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The page may open wallet pop-ups and identity sign-in windows.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
  });
}
