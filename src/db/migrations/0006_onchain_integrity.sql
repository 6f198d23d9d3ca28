CREATE TABLE "bet_quotes" (
	"digest" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"bettor" text NOT NULL,
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"signer" text NOT NULL,
	"event_id" text NOT NULL,
	"market" text NOT NULL,
	"outcome" text NOT NULL,
	"market_id" text NOT NULL,
	"outcome_index" integer NOT NULL,
	"odds_milli" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"name" text NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_blocks_name_number_pk" PRIMARY KEY("name","number")
);
--> statement-breakpoint
ALTER TABLE "sp_ledger" DROP CONSTRAINT "sp_ledger_amount_check";--> statement-breakpoint
DROP INDEX "predictions_tx_hash_key";--> statement-breakpoint
DROP INDEX "predictions_chain_tx_log_key";--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "contract" text;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "quote_digest" text;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "orphaned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "protocol_fees" ADD COLUMN "chain_id" integer;--> statement-breakpoint
ALTER TABLE "protocol_fees" ADD COLUMN "contract" text;--> statement-breakpoint
ALTER TABLE "protocol_fees" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "protocol_fees" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "sp_ledger" ADD COLUMN "reverses_id" bigint;--> statement-breakpoint
ALTER TABLE "bet_quotes" ADD CONSTRAINT "bet_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_quotes" ADD CONSTRAINT "bet_quotes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sp_ledger" ADD CONSTRAINT "sp_ledger_reverses_id_sp_ledger_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."sp_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "predictions_reported_tx_key" ON "predictions" USING btree ("tx_hash") WHERE "predictions"."version" = 2 and "predictions"."log_index" is null and "predictions"."orphaned_at" is null;--> statement-breakpoint
CREATE INDEX "predictions_chain_block_idx" ON "predictions" USING btree ("chain_id","contract","block_number") WHERE "predictions"."block_number" is not null and "predictions"."orphaned_at" is null;--> statement-breakpoint
CREATE INDEX "protocol_fees_block_idx" ON "protocol_fees" USING btree ("chain_id","contract","block_number") WHERE "protocol_fees"."block_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sp_ledger_reverses_key" ON "sp_ledger" USING btree ("reverses_id");--> statement-breakpoint
CREATE UNIQUE INDEX "predictions_chain_tx_log_key" ON "predictions" USING btree ("chain_id","tx_hash","log_index") WHERE "predictions"."version" = 2 and "predictions"."orphaned_at" is null;--> statement-breakpoint
ALTER TABLE "sp_ledger" ADD CONSTRAINT "sp_ledger_amount_check" CHECK ("sp_ledger"."amount" >= 0 or "sp_ledger"."type" = 'ADJUSTMENT' or "sp_ledger"."reverses_id" is not null);