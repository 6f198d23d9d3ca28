/** Runs once before the test files (vitest globalSetup): the migrated template databases they clone. */
import { ensureTemplates } from "./db-template.js";

export default async function setup(): Promise<void> {
  await ensureTemplates();
}
