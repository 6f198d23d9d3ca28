CREATE TABLE "chain_payouts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_payouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"account" text NOT NULL,
	"prediction_ref" numeric(78, 0) NOT NULL,
	"amount_micro" numeric(78, 0) NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_vouchers" (
	"prediction_id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"chain_id" integer NOT NULL,
	"contract" text NOT NULL,
	"account" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"nonce" text NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "reject_code" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "payout_address" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "payout_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_vouchers" ADD CONSTRAINT "payout_vouchers_prediction_id_predictions_id_fk" FOREIGN KEY ("prediction_id") REFERENCES "public"."predictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_vouchers" ADD CONSTRAINT "payout_vouchers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_payouts_chain_tx_log_key" ON "chain_payouts" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_payouts_nonce_idx" ON "chain_payouts" USING btree ("nonce");--> statement-breakpoint
CREATE INDEX "chain_payouts_block_idx" ON "chain_payouts" USING btree ("chain_id","contract","block_number");--> statement-breakpoint
CREATE INDEX "payout_vouchers_nonce_idx" ON "payout_vouchers" USING btree ("nonce");--> statement-breakpoint
CREATE INDEX "predictions_owed_idx" ON "predictions" USING btree ("contract") WHERE "predictions"."version" = 2 and "predictions"."claimed_at" is null and "predictions"."orphaned_at" is null and "predictions"."status" in ('won','void','rejected');--> statement-breakpoint
CREATE INDEX "predictions_quote_digest_idx" ON "predictions" USING btree ("quote_digest") WHERE "predictions"."quote_digest" is not null;--> statement-breakpoint
-- Rejected bets of earlier versions carry only the words: give each its machine code.
UPDATE "predictions" SET "reject_code" = CASE
	WHEN "reject_reason" LIKE '%left the canonical chain%' THEN 'REORGANISED'
	WHEN "reject_reason" LIKE '%after its quote expired%' THEN 'QUOTE_EXPIRED'
	WHEN "reject_reason" LIKE '%not before kickoff%' THEN 'EVENT_CLOSED'
	WHEN "reject_reason" LIKE '%no longer has outcome%' THEN 'OUTCOME_UNAVAILABLE'
	WHEN "reject_reason" LIKE 'stake %' OR "reject_reason" LIKE 'a win would earn more%' THEN 'STAKE_LIMIT'
	ELSE 'QUOTE_INVALID'
END WHERE "status" = 'rejected';
