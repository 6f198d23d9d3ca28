/**
 * Entry of the CLI (`npm run cli -- <command>`): parses the arguments, loads the configuration, opens (and
 * migrates) the database, runs one command with the real clock, prints its JSON result (or, with `--print
 * FIELD`, that one field) and exits 0; on failure prints one line and exits 1 (2 for a usage error).
 *
 * Beside a running server on the same embedded DATA_DIR (which has one writer), the command is sent to that
 * server (POST /api/admin/cli with ADMIN_TOKEN) and runs there, on the database it serves, once that server has
 * proven it holds the DATA_DIR's lock (remote.ts). A player's commands (`sign-in`, `bet`, …) open no database:
 * they call a running server's API (client-commands.ts).
 */

import { resolve } from "node:path";
import { type Config, loadConfig } from "../config.js";
import { DataDirLockedError, type LockHolder } from "../db/data-dir-lock.js";
import { AppError } from "../errors.js";
import { startupProblem } from "../startup-problem.js";
import {
  isClientCommand,
  type ParsedCommand,
  parseCommandLine,
  pickField,
  type RunnableCommand,
  takePrintOption,
  USAGE,
  UsageError,
} from "./arguments.js";
import { readJsonFile } from "./json-file.js";
import { errorLine, toJson } from "./output.js";
import { runOnServer, verifyHolder } from "./remote.js";

/** What the CLI prints on success: the result as JSON, or one field of it (a string as is, for `$(…)`). */
function outputOf(result: unknown, print: string | null): string {
  if (print === null) return toJson(result);
  const field = pickField(result, print);
  return typeof field === "string" ? field : toJson(field);
}

/**
 * Runs an operator's command on the configured database. The database layer is loaded only here, and the use
 * cases only once the database is open: a player's command, and an operator's command sent to the running server
 * that holds the DATA_DIR (the usual case beside `npm start`), start without them (≈ 1 s less per command).
 */
async function runLocally(config: Config, cmd: RunnableCommand, lockWaitSeconds?: number): Promise<unknown> {
  const { databaseOptions, openDatabase } = await import("../db/client.js");
  const options = {
    ...databaseOptions(config),
    ...(lockWaitSeconds === undefined ? {} : { lockWaitSeconds }),
  };
  const database = await openDatabase(options).catch((err: unknown) => {
    if (err instanceof DataDirLockedError) throw err;
    // A missing or unreachable database: one line naming the problem and the fix, as the server says it.
    throw new AppError("SERVICE_UNAVAILABLE", startupProblem("database", err, config));
  });
  try {
    const [{ runCommand }, { AdjustableClock }] = await Promise.all([
      import("./run-command.js"),
      import("../clock.js"),
    ]);
    return await runCommand({ database, config, clock: new AdjustableClock() }, cmd, readJsonFile);
  } finally {
    await database.close();
  }
}

/**
 * An operator's command, run on the database, or by the running server that holds the embedded DATA_DIR. The
 * DATA_DIR is asked for without waiting: when a server holds it, the command goes there at once. Only when that
 * server cannot be verified (it may be letting go: exiting as this command starts) does the CLI wait for the
 * lock as a server's start does, and run the command itself.
 */
async function runOperatorCommand(config: Config, cmd: RunnableCommand, argv: string[]): Promise<unknown> {
  let holder: LockHolder;
  try {
    return await runLocally(config, cmd, 0);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    holder = err.holder;
  }
  let url: string;
  try {
    // The token goes only to a server that proves it holds the lock (remote.ts).
    url = await verifyHolder(holder);
  } catch (unverified) {
    return runLocally(config, cmd).catch((err: unknown) => {
      throw err instanceof DataDirLockedError ? unverified : err;
    });
  }
  process.stderr.write(`DATA_DIR is held by the server at ${url}: sending the command to it\n`);
  return runOnServer({
    url,
    adminToken: config.adminToken,
    finalizeSecret: config.finalizeSecret,
    // Beside a running server the file is written by that server: it gets the CLI's absolute path.
    argv: cmd.command === "backup" ? ["backup", resolve(cmd.file)] : argv,
    cmd,
    readJson: readJsonFile,
  });
}

async function main(commandLine: readonly string[]): Promise<number> {
  let cmd: ParsedCommand;
  let argv: string[];
  let print: string | null;
  try {
    ({ argv, print } = takePrintOption(commandLine));
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
    let result: unknown;
    if (isClientCommand(cmd)) {
      // Loaded only here: the operator's commands start without the SDK and viem's accounts.
      const { runClientCommand } = await import("./client-commands.js");
      const { sessionFilePath } = await import("./session-file.js");
      result = await runClientCommand({ config, sessionFile: sessionFilePath() }, cmd);
      process.stdout.write(`${outputOf(result, print)}\n`);
      return 0;
    }
    if (cmd.command === "restore") {
      // Never through openDatabase: restore replaces the database it would open (cli/backup.ts).
      const { restoreCommand } = await import("./backup.js");
      process.stdout.write(`${toJson(await restoreCommand(config, cmd))}\n`);
      return 0;
    }
    result = await runOperatorCommand(config, cmd, argv);
    process.stdout.write(`${outputOf(result, print)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`${errorLine(err)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
