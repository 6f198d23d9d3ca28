/**
 * POST /api/admin/cli: runs one CLI command (its arguments, and the JSON files they name) in this server, on its
 * database. The CLI sends its commands here when the embedded DATA_DIR is held by a running server (one writer per
 * DATA_DIR), so `npm run cli -- …` in a second terminal writes where the server reads. Admin bearer token; a
 * `finalize` also needs the finalize secret (x-competition-finalize-secret), as POST /api/competition/finalize does.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { AppError } from "../errors.js";
import { hasAdminToken } from "../http/admin-token.js";
import { ok, okSchema } from "../http/envelope.js";
import { secretMatches } from "../shared/secrets.js";
import { isClientCommand, parseCommandLine, UsageError } from "./arguments.js";
import type { CliContext } from "./cli-context.js";
import { toJson } from "./output.js";
import { runCommand } from "./run-command.js";

export const CliBody = Type.Object(
  {
    argv: Type.Array(Type.String({ maxLength: 1000 }), { minItems: 1, maxItems: 64 }),
    files: Type.Optional(
      Type.Record(Type.String({ maxLength: 1000 }), Type.Unknown(), {
        description: "The content of each JSON file the arguments name, by the path given",
      }),
    ),
  },
  { additionalProperties: false, title: "CliCommand" },
);

export async function cliRoutes(instance: FastifyInstance, opts: { ctx: CliContext }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook("onRequest", async (request) => {
    if (!hasAdminToken(request.headers.authorization, opts.ctx.config.adminToken)) {
      throw new AppError("UNAUTHENTICATED", "Missing or wrong admin bearer token");
    }
  });
  app.post(
    "/api/admin/cli",
    {
      // A whole import-events file may ride along.
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        summary: "Run one CLI command in this server (what `npm run cli` sends beside a running server)",
        tags: ["admin"],
        body: CliBody,
        response: { 200: okSchema(Type.Unknown({ description: "The command's JSON output" })) },
      },
      config: {
        auth: "admin",
        errors: [
          "NOT_FOUND",
          "CONFLICT",
          "WEEK_NOT_ENDED",
          "PREVIOUS_WEEK_NOT_FINALIZED",
          "FEES_NOT_INDEXED",
          "BETS_NOT_INDEXED",
          "WEEK_NOT_FINALIZED",
        ],
      },
    },
    async (request) => {
      let cmd: ReturnType<typeof parseCommandLine>;
      try {
        cmd = parseCommandLine(request.body.argv);
      } catch (err) {
        if (err instanceof UsageError) throw new AppError("VALIDATION_FAILED", err.message);
        throw err;
      }
      if (cmd.command === "help" || isClientCommand(cmd)) {
        throw new AppError("VALIDATION_FAILED", `${cmd.command} runs in the CLI only`);
      }
      if (cmd.command === "finalize") {
        const given = request.headers["x-competition-finalize-secret"];
        if (!secretMatches(typeof given === "string" ? given : undefined, opts.ctx.config.finalizeSecret)) {
          throw new AppError(
            "UNAUTHENTICATED",
            "finalize needs the finalize secret (x-competition-finalize-secret), as the finalize endpoint does",
          );
        }
      }
      const files = request.body.files ?? {};
      const result = await runCommand(opts.ctx, cmd, async (path) => {
        if (!Object.hasOwn(files, path)) throw new AppError("VALIDATION_FAILED", `File ${path} was not sent`);
        return files[path];
      });
      // bigints (never expected) become strings, as the CLI prints them.
      return ok(JSON.parse(toJson(result)) as unknown);
    },
  );
}

/**
 * GET /api/cli/identity?challenge=…: this server's proof that it holds its embedded DATA_DIR's lock, for a CLI
 * about to send it the admin token (remote.ts). Public: the proof is an HMAC over the CLI's fresh challenge that
 * reveals nothing of the secret. 404 when this server holds no DATA_DIR (PostgreSQL, or in memory).
 */
export async function cliIdentityRoute(instance: FastifyInstance, opts: { ctx: CliContext }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    "/api/cli/identity",
    {
      schema: {
        summary:
          "Prove this server holds its DATA_DIR lock (what the CLI checks before sending it a command)",
        tags: ["admin"],
        querystring: Type.Object(
          {
            challenge: Type.String({
              pattern: "^[0-9a-f]{64}$",
              description: "32 random bytes in hex, fresh for each check",
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: okSchema(
            Type.Object({
              proof: Type.String({
                pattern: "^[0-9a-f]{64}$",
                description:
                  "HMAC-SHA256 with the secret of <DATA_DIR>/sp-writer.lock over the advertised URL and the challenge",
              }),
            }),
          ),
        },
      },
      config: { auth: "public", errors: ["NOT_FOUND"] },
    },
    async (request) => {
      const proof = opts.ctx.database.dataDirLock?.prove(request.query.challenge) ?? null;
      if (proof === null) throw new AppError("NOT_FOUND", "This server holds no DATA_DIR");
      return ok({ proof });
    },
  );
}
