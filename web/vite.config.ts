/**
 * Builds the browser app (web/src) into web/dist, which the server serves at `/` (src/http/static.ts).
 * Preact's automatic JSX runtime is configured on Oxc directly, so no framework plugin is needed.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "/",
  publicDir: "public",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    // `npx vite web` during development: the API runs on `npm start` (port 3000) and is proxied, same origin.
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
});
