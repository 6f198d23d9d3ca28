/**
 * Serves the built web app (web/dist, made by `npm run build:web`) at `/`: files by path, and index.html for
 * any other GET that is not under /api (the page keeps its state in the query string), so a shared link opens the
 * page. Hashed assets under /assets/ are cached for a year (`immutable`); everything else is revalidated
 * (`no-cache` + ETag). Unknown /api routes, missing asset files and non-GET methods still get the JSON 404 envelope.
 * Register it after every other route: it owns the catch-all GET route.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { decodedPath, isApiPath } from "./api-path.js";

/** Where `vite build` puts the web app. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL("../../web/dist", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

const notFound = (reply: FastifyReply) => reply.callNotFound();

/** The file under root a URL path names, or null when the path is malformed or leaves root. */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const file = resolve(root, `.${decoded.startsWith("/") ? decoded : `/${decoded}`}`);
  return file === root || file.startsWith(root + sep) ? file : null;
}

async function regularFile(file: string) {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  cacheControl: string,
): Promise<boolean> {
  // Answers true once it sent the file. (It must not return the reply itself: a Fastify reply is thenable, so
  // an async function returning it resolves to undefined once the response ends.)
  const s = await regularFile(file);
  if (!s) return false;
  const etag = `W/"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`;
  reply
    .header("content-type", CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream")
    .header("cache-control", cacheControl)
    .header("etag", etag)
    .header("x-content-type-options", "nosniff");
  if (request.headers["if-none-match"] === etag) {
    reply.code(304).send();
    return true;
  }
  reply.header("content-length", s.size);
  reply.send(request.method === "HEAD" ? undefined : createReadStream(file));
  return true;
}

export async function staticRoutes(app: FastifyInstance, opts: { root?: string } = {}): Promise<void> {
  const root = resolve(opts.root ?? DEFAULT_WEB_ROOT);
  const index = join(root, "index.html");

  app.get("/*", { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    if (isApiPath(decodedPath(request.url))) return notFound(reply);

    const file = path === "/" ? index : fileFor(root, path);
    if (file === null) return notFound(reply);
    const isAsset = path.startsWith("/assets/");
    if (await sendFile(request, reply, file, isAsset ? IMMUTABLE : REVALIDATE)) return reply;

    // A path that names a file (an extension, or anything under /assets/) and is missing is a real 404; any other
    // path is a view of the page.
    if (isAsset || extname(path) !== "") return notFound(reply);
    if (await sendFile(request, reply, index, REVALIDATE)) return reply;
    return reply
      .code(503)
      .header("content-type", "text/plain; charset=utf-8")
      .header("cache-control", "no-store")
      .send("The web app is not built yet: run `npm run build:web` (npm start does it).\n");
  });
}
