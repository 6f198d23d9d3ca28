/**
 * The command line: `parseCommandLine(argv)` turns the arguments after `npm run cli --` into one typed command,
 * or throws UsageError (one line). Only the shape of the arguments is checked here; their values are validated
 * by the commands with the API's schemas (the operator's commands) or by the server (a player's).
 *
 * Two kinds of command: the operator's (admin / feed, seed, finalize) run on the database, or on the server that
 * holds the embedded DATA_DIR; a player's (`sign-in`, `bet`, …, `ClientCommand`) and `clock` are HTTP calls to a
 * running server through the typed SDK, as the signed-in player (client-commands.ts).
 */
import { parseArgs } from "node:util";
import { PREDICTION_STATUSES, type PredictionStatus } from "../predictions/statuses.js";

export class UsageError extends Error {}

/** What `seed-demo` seeds without --players and --seed. */
const SEED_DEFAULTS = { players: 300, seed: "demo" } as const;

/** The commands that call a running server's API (client-commands.ts); `url` overrides the default server. */
export type ClientCommand = { url?: string } & (
  | { command: "sign-in"; key: `0x${string}`; referralCode?: string }
  | { command: "sign-out" }
  | { command: "whoami" }
  | { command: "events"; query: { sport?: string; league?: string; limit?: number; cursor?: string } }
  | {
      command: "bet";
      body: { eventId: string; market: string; outcome: string; stake: number; expectedOdds?: number };
    }
  | { command: "predictions"; query: { status?: PredictionStatus; limit?: number; cursor?: string } }
  | { command: "claim"; predictionId: string }
  | { command: "me"; week?: number }
  | { command: "clock"; now: string | null }
);

export const CLIENT_COMMANDS = new Set([
  "sign-in",
  "sign-out",
  "whoami",
  "events",
  "bet",
  "predictions",
  "claim",
  "me",
  "clock",
]);

export function isClientCommand(cmd: ParsedCommand): cmd is ClientCommand {
  return CLIENT_COMMANDS.has(cmd.command);
}

export type ParsedCommand =
  | ClientCommand
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

/** The operator's commands: they run on a database (a player's call a server: client-commands.ts). */
export type RunnableCommand = Exclude<ParsedCommand, { command: "help" } | ClientCommand>;

/** The JSON files a command names (read by the CLI before it sends the command to a server). */
export function filesOf(cmd: RunnableCommand): string[] {
  return cmd.command === "event-upsert" || cmd.command === "import-events" ? [cmd.file] : [];
}

/** `--print FIELD` (anywhere on the line): the dotted path of the one field of the result to print. */
export function takePrintOption(argv: readonly string[]): { argv: string[]; print: string | null } {
  const rest: string[] = [];
  let print: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--print" || arg.startsWith("--print=")) {
      const value = arg === "--print" ? argv[++i] : arg.slice("--print=".length);
      if (!value || !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(value)) {
        throw new UsageError("--print needs a field path like prediction.id");
      }
      print = value;
    } else {
      rest.push(arg);
    }
  }
  return { argv: rest, print };
}

/** The field `path` names in `value` (`prediction.id`, `items.0.id`), or a UsageError naming what is missing. */
export function pickField(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) {
      throw new UsageError(`--print ${path}: the result has no field ${key}`);
    }
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

export const USAGE = `Usage: npm run cli -- <command> [options] [--print FIELD]

Output is JSON on stdout (--print prediction.id prints that one field of it, for scripts); errors are one line
on stderr with a non-zero exit code.

A player's commands call a running server (default: the one holding DATA_DIR, else http://127.0.0.1:PORT;
--url URL for another) as the player signed in with sign-in:
  sign-in --key 0x<64 hex> [--referral-code CODE]
      Sign in with a wallet's private key (Sign-In with Ethereum) and keep the session, per server, in
      $XDG_CONFIG_HOME/sp-cli/sessions.json (default ~/.config; readable by you only). Use a test wallet's key.
  sign-out
      End the session on the server and forget it.
  whoami
      The signed-in player.
  events [--sport S] [--league L] [--limit N] [--cursor C]
      Open events by kickoff (a page; nextCursor goes to --cursor for the next one).
  bet --event ID --market KEY --outcome KEY --stake N [--odds X]
      Bet N free credits; with --odds, a price that moved since is refused (ODDS_CHANGED).
  predictions [--status pending|open|won|lost|void|rejected] [--limit N] [--cursor C]
      My predictions, newest first.
  claim --prediction ID
      Claim the payout of a won or void prediction, once.
  me [--week N]
      My standing in the Qualification and Champions ladders of week N (default: the current week).
  clock --now ISO | --real
      Admin (ADMIN_TOKEN): pin the server's clock to ISO, or back to real time (a server started with
      TEST_CLOCK=1 only).

The operator's commands run on the database (or, beside a running server on the same DATA_DIR, in that server):
  event-upsert --id ID --file event.json
      Create or update an event; the file holds the body of PUT /api/admin/events/:id ("-": read it from
      standard input).
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

function number(command: string, name: string, raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n)) {
    throw new UsageError(`${command}: --${name} must be a number, got "${raw}"`);
  }
  return n;
}

const optional = <T>(raw: string | undefined, parseValue: (raw: string) => T): T | undefined =>
  raw === undefined ? undefined : parseValue(raw);

/** The options every player's command takes. */
const CLIENT_OPTIONS = { url: { type: "string" } } as const;

function clientUrl(command: string, values: Record<string, string | undefined>): { url?: string } {
  const url = values.url;
  if (url === undefined) return {};
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${command}: --url must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`${command}: --url must be an http(s) URL, got "${url}"`);
  }
  return { url: parsed.origin };
}

function isPrivateKey(s: string): s is `0x${string}` {
  return /^0x[0-9a-fA-F]{64}$/.test(s);
}

function isPredictionStatus(s: string): s is PredictionStatus {
  return (PREDICTION_STATUSES as readonly string[]).includes(s);
}

function parseClientCommand(command: string, args: string[]): ClientCommand | null {
  switch (command) {
    case "sign-in": {
      const { values } = parse(command, args, {
        ...CLIENT_OPTIONS,
        key: { type: "string" },
        "referral-code": { type: "string" },
      });
      const key = required(command, values, "key");
      if (!isPrivateKey(key))
        throw new UsageError(`${command}: --key must be a private key, 0x and 64 hex digits`);
      const referralCode = values["referral-code"];
      return {
        command,
        ...clientUrl(command, values),
        key,
        ...(referralCode === undefined ? {} : { referralCode }),
      };
    }
    case "sign-out":
    case "whoami": {
      const { values } = parse(command, args, CLIENT_OPTIONS);
      return { command, ...clientUrl(command, values) };
    }
    case "events": {
      const { values } = parse(command, args, {
        ...CLIENT_OPTIONS,
        sport: { type: "string" },
        league: { type: "string" },
        limit: { type: "string" },
        cursor: { type: "string" },
      });
      const query = defined({
        sport: values.sport,
        league: values.league,
        limit: optional(values.limit, (raw) => integer(command, "limit", raw)),
        cursor: values.cursor,
      });
      return { command, ...clientUrl(command, values), query };
    }
    case "bet": {
      const { values } = parse(command, args, {
        ...CLIENT_OPTIONS,
        event: { type: "string" },
        market: { type: "string" },
        outcome: { type: "string" },
        stake: { type: "string" },
        odds: { type: "string" },
      });
      const body = {
        eventId: required(command, values, "event"),
        market: required(command, values, "market"),
        outcome: required(command, values, "outcome"),
        stake: integer(command, "stake", required(command, values, "stake")),
        ...(values.odds === undefined ? {} : { expectedOdds: number(command, "odds", values.odds) }),
      };
      return { command, ...clientUrl(command, values), body };
    }
    case "predictions": {
      const { values } = parse(command, args, {
        ...CLIENT_OPTIONS,
        status: { type: "string" },
        limit: { type: "string" },
        cursor: { type: "string" },
      });
      const status = values.status;
      if (status !== undefined && !isPredictionStatus(status)) {
        throw new UsageError(`${command}: --status must be one of ${PREDICTION_STATUSES.join(", ")}`);
      }
      const query = {
        ...(status === undefined ? {} : { status }),
        ...defined({
          limit: optional(values.limit, (raw) => integer(command, "limit", raw)),
          cursor: values.cursor,
        }),
      };
      return { command, ...clientUrl(command, values), query };
    }
    case "claim": {
      const { values } = parse(command, args, { ...CLIENT_OPTIONS, prediction: { type: "string" } });
      return {
        command,
        ...clientUrl(command, values),
        predictionId: required(command, values, "prediction"),
      };
    }
    case "me": {
      const { values } = parse(command, args, { ...CLIENT_OPTIONS, week: { type: "string" } });
      const week = optional(values.week, (raw) => integer(command, "week", raw));
      return { command, ...clientUrl(command, values), ...(week === undefined ? {} : { week }) };
    }
    case "clock": {
      const { values } = parse(command, args, {
        ...CLIENT_OPTIONS,
        now: { type: "string" },
        real: { type: "boolean" },
      });
      const real = (values as Record<string, unknown>).real === true;
      if ((values.now === undefined) === !real) {
        throw new UsageError(`${command}: give exactly one of --now ISO or --real`);
      }
      return { command, ...clientUrl(command, values), now: real ? null : values.now! };
    }
    default:
      return null;
  }
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
  const client = command === undefined ? null : parseClientCommand(command, args);
  if (client) return client;
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
