CREATE TABLE "credits_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credits_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"amount" bigint NOT NULL,
	"external_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credits_ledger_reason_check" CHECK ("credits_ledger"."reason" in ('WELCOME','DAILY','STAKE','PAYOUT','ADJUSTMENT'))
);
--> statement-breakpoint
CREATE TABLE "predictions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "predictions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"event_id" text NOT NULL,
	"market" text NOT NULL,
	"outcome" text NOT NULL,
	"odds_milli" bigint NOT NULL,
	"stake" bigint,
	"stake_micro" bigint,
	"status" text NOT NULL,
	"payout" bigint,
	"payout_micro" bigint,
	"claimed_at" timestamp with time zone,
	"placed_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"tx_hash" text,
	"chain_id" integer,
	"reject_reason" text,
	"idempotency_key" text,
	"balance_after" bigint,
	CONSTRAINT "predictions_status_check" CHECK ("predictions"."status" in ('pending','open','won','lost','void','rejected')),
	CONSTRAINT "predictions_version_check" CHECK (("predictions"."version" = 1 and "predictions"."stake" > 0) or ("predictions"."version" = 2 and "predictions"."stake_micro" > 0 and "predictions"."tx_hash" is not null))
);
--> statement-breakpoint
CREATE TABLE "usdc_claims" (
	"prediction_id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"amount_micro" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credits_balance" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credits_ledger" ADD CONSTRAINT "credits_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usdc_claims" ADD CONSTRAINT "usdc_claims_prediction_id_predictions_id_fk" FOREIGN KEY ("prediction_id") REFERENCES "public"."predictions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usdc_claims" ADD CONSTRAINT "usdc_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credits_ledger_external_id_key" ON "credits_ledger" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "credits_ledger_user_idx" ON "credits_ledger" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "predictions_user_idx" ON "predictions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "predictions_event_idx" ON "predictions" USING btree ("event_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "predictions_tx_hash_key" ON "predictions" USING btree ("tx_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "predictions_idempotency_key" ON "predictions" USING btree ("user_id","version","idempotency_key");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_credits_balance_check" CHECK ("users"."credits_balance" >= 0);