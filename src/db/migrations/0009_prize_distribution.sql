-- Champions prizes paid by a Merkle distributor (issue 15). prize_trees: the Merkle tree of a finalized week's
-- prizes, stored in finalize's transaction (or, for a week finalized before this migration, on its first read) and
-- never changed. prize_claims: PrizeClaimed logs of the distributor contract, read by the chain job runner.
-- Amounts are numeric like the pool they share (migration 0008): a week's total can pass 64 bits.
CREATE TABLE "prize_trees" (
	"week" integer PRIMARY KEY NOT NULL,
	"root" text,
	"total_micro" numeric(78, 0) NOT NULL,
	"leaves" jsonb NOT NULL,
	"awaiting_wallet" jsonb NOT NULL,
	"carried" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prize_trees_week_competition_weeks_week_fk" FOREIGN KEY ("week") REFERENCES "public"."competition_weeks"("week") ON DELETE no action ON UPDATE no action
);
--> statement-breakpoint
CREATE TABLE "prize_claims" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prize_claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"week" integer NOT NULL,
	"account" text NOT NULL,
	"amount_micro" numeric(78, 0) NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "prize_claims_chain_tx_log_key" ON "prize_claims" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "prize_claims_week_account_idx" ON "prize_claims" USING btree ("week","account");--> statement-breakpoint
CREATE INDEX "prize_claims_block_idx" ON "prize_claims" USING btree ("chain_id","contract","block_number");
