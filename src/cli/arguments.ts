/**
 * The command line: `parseCommandLine(argv)` turns the arguments after `npm run cli --` into one typed command,
 * or throws UsageError (one line). Only the shape of the arguments is checked here; their values are validated
 * by the commands with the API's schemas.
 */
import { parseArgs } from "node:util";
import { SEED_DEFAULTS } from "./seed-demo.js";

export class UsageError extends Error {}

export type ParsedCommand =
  | { command: "help" }
  | { command: "event-upsert"; id: string; file: string }
  | { command: "event-result"; id: string; body: Record<string, unknown> }
  | { command: "sp-transaction"; input: Record<string, unknown> }
  | { command: "protocol-fee"; input: Record<string, unknown> }
  | { command: "finalize"; week: number }
  | { command: "prize-root"; week: number }
  | { command: "import-events"; file: string }
  | { command: "seed-demo"; players: number; seed: string }
  | { command: "backup"; file: string }
  | { command: "restore"; file: string; overwrite: boolean };

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands (output is JSON on stdout; errors are one line on stderr with a non-zero exit code):
  event-upsert --id ID --file event.json
      Create or update an event; the file holds the body of PUT /api/admin/events/:id.
  event-result --id ID --status finished --winning-outcome KEY [--market-winner MARKET=KEY …]
  event-result --id ID --status cancelled
      Settle an event: its predictions become won / lost / void and winners earn SP. Posting the same result
      again changes nothing.
  sp-transaction (--wallet 0x… | --user-id N) --type TYPE --amount N [--event-id E] --external-id X
      Record one SP ledger row (TYPE: PREDICTION, WARMUP_PREDICTION, ONCHAIN_PREDICTION, ONCHAIN_SP,
      REFERRAL, RAFFLE, ADJUSTMENT; a negative ADJUSTMENT is written --amount=-N); replaying an external id
      returns the first row.
  protocol-fee --tx-hash 0x… --log-index N --amount-usdc "12.5" --occurred-at ISO
      Record one protocol fee; idempotent per (tx hash, log index).
  finalize --week N
      Finalize competition week N (weeks are finalized in order).
  prize-root --week N
      For finalized week N: the Merkle root of its Champions prizes, the total to fund the prize distributor
      with (micro-USDC and USDC), and the calldata of setRoot(N, root) and of the USDC transfer to send from
      the distributor owner's wallet (the service holds no key).
  import-events FILE.json
      Import a JSON array of {id, ...event body}; all entries are validated first, nothing is imported if any
      is invalid. Re-importing the same file changes nothing but the odds update time.
  seed-demo [--players N] [--seed S]
      Seed a demo season around the configured season and the current time (default ${SEED_DEFAULTS.players}
      players, seed "${SEED_DEFAULTS.seed}"). Idempotent; refuses NODE_ENV=production.
  backup FILE
      Write a backup of the database to FILE: pg_dump's custom format on PostgreSQL, a gzipped tar of the data
      directory on the embedded database (beside a running server, the server writes it).
  restore FILE [--overwrite]
      Replace the database with the backup in FILE. Refuses while a server uses the database (stop every
      instance first) and, without --overwrite, when the database holds data. Embedded: the replaced files are
      kept in <DATA_DIR>.before-restore-<time>.
  help
      Show this text.

Configuration comes from the same environment as the server (DATABASE_URL or DATA_DIR, CHAMPIONS_*, …).
Use \`npm run -s cli -- …\` to keep npm's own banner out of the JSON on stdout.
`;

type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

function parse(command: string, args: string[], options: OptionSpec, positionals = 0) {
  let parsed: ReturnType<typeof parseArgs<{ options: OptionSpec; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message.replace(/\s*\n\s*/g, " ")}`);
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(
      positionals === 0
        ? `${command}: unexpected argument "${parsed.positionals[0]}"`
        : `${command}: expected ${positionals} file argument, got ${parsed.positionals.length}`,
    );
  }
  return {
    values: parsed.values as Record<string, string | undefined>,
    lists: parsed.values as Record<string, string[] | undefined>,
    positionals: parsed.positionals,
  };
}

function required(command: string, values: Record<string, string | undefined>, name: string): string {
  const v = values[name];
  if (v === undefined) throw new UsageError(`${command}: --${name} is required`);
  return v;
}

function integer(command: string, name: string, raw: string, allowNegative = false): number {
  if (!(allowNegative ? /^-?\d{1,15}$/ : /^\d{1,15}$/).test(raw)) {
    throw new UsageError(
      `${command}: --${name} must be ${allowNegative ? "an" : "a non-negative"} integer, got "${raw}"`,
    );
  }
  return Number(raw);
}

/** Drops undefined values, so optional fields are absent rather than undefined when validated. */
function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  const [command, ...args] = argv;
  switch (command) {
    case undefined:
    case "help":
    case "--help":
    case "-h":
      return { command: "help" };
    case "event-upsert": {
      const { values } = parse(command, args, { id: { type: "string" }, file: { type: "string" } });
      return { command, id: required(command, values, "id"), file: required(command, values, "file") };
    }
    case "event-result": {
      const { values, lists } = parse(command, args, {
        id: { type: "string" },
        status: { type: "string" },
        "winning-outcome": { type: "string" },
        "market-winner": { type: "string", multiple: true },
      });
      const id = required(command, values, "id");
      const status = required(command, values, "status");
      if (status === "cancelled") {
        if (values["winning-outcome"] !== undefined || lists["market-winner"] !== undefined) {
          throw new UsageError(`${command}: a cancelled event has no winning outcome`);
        }
        return { command, id, body: { status } };
      }
      const winningOutcomes: Record<string, string> = {};
      for (const pair of lists["market-winner"] ?? []) {
        const m = /^([^=]+)=(.+)$/.exec(pair);
        if (!m) throw new UsageError(`${command}: --market-winner must be MARKET=OUTCOME, got "${pair}"`);
        winningOutcomes[m[1]!] = m[2]!;
      }
      return {
        command,
        id,
        body: defined({
          status,
          winningOutcome: required(command, values, "winning-outcome"),
          winningOutcomes: Object.keys(winningOutcomes).length > 0 ? winningOutcomes : undefined,
        }),
      };
    }
    case "sp-transaction": {
      const { values } = parse(command, args, {
        wallet: { type: "string" },
        "user-id": { type: "string" },
        type: { type: "string" },
        amount: { type: "string" },
        "event-id": { type: "string" },
        "external-id": { type: "string" },
      });
      if ((values.wallet === undefined) === (values["user-id"] === undefined)) {
        throw new UsageError(`${command}: give exactly one of --wallet or --user-id`);
      }
      return {
        command,
        input: defined({
          wallet: values.wallet,
          userId: values["user-id"],
          type: required(command, values, "type"),
          amount: integer(command, "amount", required(command, values, "amount"), true),
          eventId: values["event-id"],
          externalId: required(command, values, "external-id"),
        }),
      };
    }
    case "protocol-fee": {
      const { values } = parse(command, args, {
        "tx-hash": { type: "string" },
        "log-index": { type: "string" },
        "amount-usdc": { type: "string" },
        "occurred-at": { type: "string" },
      });
      return {
        command,
        input: {
          txHash: required(command, values, "tx-hash"),
          logIndex: integer(command, "log-index", required(command, values, "log-index")),
          amountUsdc: required(command, values, "amount-usdc"),
          occurredAt: required(command, values, "occurred-at"),
        },
      };
    }
    case "finalize":
    case "prize-root": {
      const { values } = parse(command, args, { week: { type: "string" } });
      return { command, week: integer(command, "week", required(command, values, "week")) };
    }
    case "import-events": {
      const { positionals } = parse(command, args, {}, 1);
      return { command, file: positionals[0]! };
    }
    case "seed-demo": {
      const { values } = parse(command, args, { players: { type: "string" }, seed: { type: "string" } });
      return {
        command,
        players:
          values.players === undefined ? SEED_DEFAULTS.players : integer(command, "players", values.players),
        seed: values.seed ?? SEED_DEFAULTS.seed,
      };
    }
    case "backup": {
      const { positionals } = parse(command, args, {}, 1);
      return { command, file: positionals[0]! };
    }
    case "restore": {
      const { positionals, values } = parse(command, args, { overwrite: { type: "boolean" } }, 1);
      return { command, file: positionals[0]!, overwrite: (values.overwrite as unknown as boolean) === true };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
