/**
 * Entry of the CLI (`npm run cli -- <command>`): parses the arguments, loads the configuration, opens (and
 * migrates) the database, runs one command with the real clock, prints its JSON result and exits 0; on failure
 * prints one line and exits 1 (2 for a usage error).
 *
 * Beside a running server on the same embedded DATA_DIR (which has one writer), the command is sent to that
 * server (POST /api/admin/cli with ADMIN_TOKEN) and runs there, on the database it serves, once that server has
 * proven it holds the DATA_DIR's lock (remote.ts).
 */
import { AdjustableClock } from "../clock.js";
import { loadConfig } from "../config.js";
import { databaseOptions, openDatabase } from "../db/client.js";
import { DataDirLockedError } from "../db/data-dir-lock.js";
import { AppError } from "../errors.js";
import { startupProblem } from "../startup-problem.js";
import { type ParsedCommand, parseCommandLine, USAGE, UsageError } from "./arguments.js";
import { readJsonFile } from "./json-file.js";
import { errorLine, toJson } from "./output.js";
import { runOnServer, verifyHolder } from "./remote.js";
import { runCommand } from "./run-command.js";

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
    let result: unknown;
    try {
      const database = await openDatabase(databaseOptions(config)).catch((err: unknown) => {
        if (err instanceof DataDirLockedError) throw err;
        // A missing or unreachable database: one line naming the problem and the fix, as the server says it.
        throw new AppError("SERVICE_UNAVAILABLE", startupProblem("database", err, config));
      });
      try {
        result = await runCommand({ database, config, clock: new AdjustableClock() }, cmd, readJsonFile);
      } finally {
        await database.close();
      }
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
      // The token goes only to a server that proves it holds the lock (remote.ts).
      const url = await verifyHolder(err.holder);
      process.stderr.write(`DATA_DIR is held by the server at ${url}: sending the command to it\n`);
      result = await runOnServer({
        url,
        adminToken: config.adminToken,
        argv,
        cmd,
        readJson: readJsonFile,
      });
    }
    process.stdout.write(`${toJson(result)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`${errorLine(err)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
