/**
 * Runs one parsed CLI command against a database. Commands that name a JSON file get its content through
 * `readJson`: the CLI reads the file itself; a server running a command sent by the CLI (routes.ts) reads it from
 * what the CLI sent along.
 */
import { AppError } from "../errors.js";
import type { RunnableCommand } from "./arguments.js";
import { backupCommand } from "./backup.js";
import type { CliContext } from "./cli-context.js";
import {
  eventResultCommand,
  eventUpsertCommand,
  finalizeCommand,
  prizeRootCommand,
  protocolFeeCommand,
  spTransactionCommand,
} from "./commands.js";
import { importEventsCommand } from "./import-events.js";
import { seedDemoCommand } from "./seed-demo.js";

export async function runCommand(
  ctx: CliContext,
  cmd: RunnableCommand,
  readJson: (path: string) => Promise<unknown>,
): Promise<unknown> {
  switch (cmd.command) {
    case "event-upsert":
      return eventUpsertCommand(ctx, { id: cmd.id, body: await readJson(cmd.file) });
    case "event-result":
      return eventResultCommand(ctx, { id: cmd.id, body: cmd.body });
    case "sp-transaction":
      return spTransactionCommand(ctx, cmd.input);
    case "protocol-fee":
      return protocolFeeCommand(ctx, cmd.input);
    case "finalize":
      return finalizeCommand(ctx, { week: cmd.week });
    case "prize-root":
      return prizeRootCommand(ctx, { week: cmd.week });
    case "import-events":
      return importEventsCommand(ctx, await readJson(cmd.file));
    case "backup":
      return backupCommand(ctx, { file: cmd.file });
    case "restore":
      // Replaces the database under the process running it: only the CLI, with every server stopped (main.ts).
      throw new AppError("CONFLICT", "restore runs in the CLI only, with every server stopped");
    case "seed-demo": {
      const result = await seedDemoCommand(ctx, { players: cmd.players, seed: cmd.seed });
      process.stderr.write(`seed-demo: done in ${(result.elapsedMs / 1000).toFixed(1)} s\n`);
      return result;
    }
  }
}
