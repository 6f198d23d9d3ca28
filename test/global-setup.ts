/**
 * Runs once before the test files (vitest globalSetup): the migrated template databases they clone, and the bundle
 * of the service's entry points that the tests starting processes run (test/service-bundle.ts). The workers, and
 * the processes they start, inherit SP_SERVICE_BUNDLE; the bundle is removed when the run ends.
 */
import { ensureTemplates } from "./db-template.js";
import { BUNDLE_ENV, buildServiceBundle, removeServiceBundle } from "./service-bundle.js";

export default async function setup(): Promise<() => void> {
  const [bundle] = await Promise.all([buildServiceBundle(), ensureTemplates()]);
  process.env[BUNDLE_ENV] = bundle;
  return () => removeServiceBundle(bundle);
}
