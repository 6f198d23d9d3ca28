/**
 * Whether a request is one of the API's (`/api/…`): judged by the route it reached, as the router decoded its path,
 * never by the raw spelling of its URL. `/%61pi/competition/finalize` reaches `/api/competition/finalize`; read raw,
 * it escaped the rate limits (the finalize secret could be guessed without limit) and lost its cache-control.
 * A request that reached no API route (a 404, the page's catch-all) is judged by its percent-decoded path.
 */
import type { FastifyRequest } from "fastify";

export function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route?.startsWith("/api/")) return true;
  return isApiPath(decodedPath(request.url));
}

/** `/api` itself or anything under it. */
export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/");
}

/** The path of `url` (its query left out), percent-decoded; as it is when it does not decode. */
export function decodedPath(url: string): string {
  const path = url.split("?")[0] ?? "/";
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
