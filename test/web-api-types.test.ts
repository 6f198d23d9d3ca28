/**
 * The web app's API types (web/src/api-types.ts) are generated from the service's OpenAPI document; this fails when
 * a route schema changed and `npm run gen:api` was not run, so the page cannot compile against a stale contract.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_TYPES_FILE, generateApiTypes } from "../scripts/gen-api-types.js";

describe("web/src/api-types.ts", () => {
  it("equals a fresh generation from /docs/json (run `npm run gen:api` if not)", async () => {
    const fresh = await generateApiTypes();
    expect(fresh).toContain('"/api/competition/leaderboard"');
    expect(readFileSync(API_TYPES_FILE, "utf8") === fresh, "web/src/api-types.ts is stale").toBe(true);
  });
});
