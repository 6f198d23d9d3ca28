/**
 * Entry of the CLI (`npm run cli -- <command>`): parses the arguments, loads the configuration, opens (and
 * migrates) the database, runs one command with the real clock, prints its JSON result and exits 0; on failure
 * prints one line and exits 1 (2 for a usage error).
 */
import { AdjustableClock } from "../clock.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";
import { type ParsedCommand, parseCommandLine, USAGE, UsageError } from "./arguments.js";
import type { CliContext } from "./cli-context.js";
import {
  eventResultCommand,
  eventUpsertCommand,
  finalizeCommand,
  protocolFeeCommand,
  spTransactionCommand,
} from "./commands.js";
import { importEventsCommand } from "./import-events.js";
import { readJsonFile } from "./json-file.js";
import { errorLine, toJson } from "./output.js";
import { seedDemoCommand } from "./seed-demo.js";

async function dispatch(ctx: CliContext, cmd: Exclude<ParsedCommand, { command: "help" }>): Promise<unknown> {
  switch (cmd.command) {
    case "event-upsert":
      return eventUpsertCommand(ctx, { id: cmd.id, body: await readJsonFile(cmd.file) });
    case "event-result":
      return eventResultCommand(ctx, { id: cmd.id, body: cmd.body });
    case "sp-transaction":
      return spTransactionCommand(ctx, cmd.input);
    case "protocol-fee":
      return protocolFeeCommand(ctx, cmd.input);
    case "finalize":
      return finalizeCommand(ctx, { week: cmd.week });
    case "import-events":
      return importEventsCommand(ctx, await readJsonFile(cmd.file));
    case "seed-demo": {
      const result = await seedDemoCommand(ctx, { players: cmd.players, seed: cmd.seed });
      process.stderr.write(`seed-demo: done in ${(result.elapsedMs / 1000).toFixed(1)} s\n`);
      return result;
    }
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let cmd: ParsedCommand;
  try {
    cmd = parseCommandLine(argv);
  } catch (err) {
    process.stderr.write(`${errorLine(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
  if (cmd.command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    const config = loadConfig();
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      connectTimeoutMs: config.databaseConnectTimeoutMs,
    });
    try {
      const result = await dispatch({ database, config, clock: new AdjustableClock() }, cmd);
      process.stdout.write(`${toJson(result)}\n`);
      return 0;
    } finally {
      await database.close();
    }
  } catch (err) {
    process.stderr.write(`${errorLine(err)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
