/**
 * The API's generated types (packages/sdk/src/api-types.ts, web/src/api-types.ts) equal a fresh generation from the
 * service's OpenAPI document; this fails when a route schema changed and `npm run gen:api` was not run, so neither
 * the SDK nor the page can compile against a stale contract.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_TYPES_FILE, generateApiTypes, SDK_TYPES_FILE } from "../scripts/gen-api-types.js";
import { pgliteTemplate } from "./db-template.js";

describe("the generated API types", () => {
  it("equal a fresh generation from /docs/json in the SDK and in the web app (run `npm run gen:api` if not)", async () => {
    // The app is built on the run's migrated template (test/global-setup.ts) rather than a database migrated here.
    const fresh = await generateApiTypes(pgliteTemplate() ?? undefined);
    expect(fresh).toContain('"/api/competition/leaderboard"');
    expect(readFileSync(SDK_TYPES_FILE, "utf8") === fresh, "packages/sdk/src/api-types.ts is stale").toBe(
      true,
    );
    expect(readFileSync(API_TYPES_FILE, "utf8") === fresh, "web/src/api-types.ts is stale").toBe(true);
  });
});
