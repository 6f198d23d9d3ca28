/**
 * The order test files start in. Vitest's own order puts the files that took longest in the last run first, but
 * that record lives in node_modules/.vite, which a fresh clone (CI) does not have: it then orders by file size, and
 * a 50-second file that spawns servers could start last and hold the run open alone. The files below (slowest
 * first, as measured in docs/decisions.md "Test files in parallel") start first whatever the cache holds; the rest
 * keep vitest's order.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SLOW_FIRST = [
  "test/data-dir-lock.db.test.ts",
  "test/readme-walkthrough.db.test.ts",
  "test/e2e/competition.db.test.ts",
  "test/e2e/live.db.test.ts",
  "src/webhooks/webhooks.db.test.ts",
  "test/e2e/player.db.test.ts",
  "src/cli/backup.db.test.ts",
  "test/data-dir-writer.db.test.ts",
  "test/heavy-jobs.db.test.ts",
  "test/e2e/onchain.db.test.ts",
  "test/e2e/slip.db.test.ts",
  "src/chain/money-path.db.test.ts",
  "test/database-faults.db.test.ts",
  "test/startup-failures.db.test.ts",
  "test/shutdown-budget.db.test.ts",
  "src/cli/cli.db.test.ts",
];

function rank(spec: TestSpecification): number {
  const at = SLOW_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return at < 0 ? SLOW_FIRST.length : at;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: files outside the list keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
