CREATE TABLE "auth_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "competition_eligibility" (
	"week" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"via" text NOT NULL,
	"source_week" integer NOT NULL,
	CONSTRAINT "competition_eligibility_week_user_id_pk" PRIMARY KEY("week","user_id"),
	CONSTRAINT "competition_eligibility_via_check" CHECK ("competition_eligibility"."via" in ('qualification','champions'))
);
--> statement-breakpoint
CREATE TABLE "competition_leaderboard_snapshots" (
	"week" integer NOT NULL,
	"ladder" text NOT NULL,
	"position" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"competitive_sp" bigint NOT NULL,
	"rank" integer NOT NULL,
	"within_cutoff" boolean NOT NULL,
	"prize_micro" bigint,
	CONSTRAINT "competition_leaderboard_snapshots_week_ladder_position_pk" PRIMARY KEY("week","ladder","position"),
	CONSTRAINT "competition_snapshots_ladder_check" CHECK ("competition_leaderboard_snapshots"."ladder" in ('qualification','champions'))
);
--> statement-breakpoint
CREATE TABLE "competition_weeks" (
	"week" integer PRIMARY KEY NOT NULL,
	"finalized_at" timestamp with time zone NOT NULL,
	"pool_micro" bigint NOT NULL,
	"result" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"sport" text NOT NULL,
	"league" text NOT NULL,
	"home_team" text NOT NULL,
	"away_team" text NOT NULL,
	"kickoff_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"warmup" boolean DEFAULT false NOT NULL,
	"markets" jsonb NOT NULL,
	"odds_updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_status_check" CHECK ("events"."status" in ('scheduled','live','finished','cancelled'))
);
--> statement-breakpoint
CREATE TABLE "protocol_fees" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "protocol_fees_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"amount_micro" bigint NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sp_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sp_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	"event_id" text,
	"external_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sp_ledger_type_check" CHECK ("sp_ledger"."type" in ('PREDICTION','WARMUP_PREDICTION','ONCHAIN_PREDICTION','ONCHAIN_SP','REFERRAL','RAFFLE','ADJUSTMENT')),
	CONSTRAINT "sp_ledger_amount_check" CHECK ("sp_ledger"."amount" >= 0 or "sp_ledger"."type" = 'ADJUSTMENT')
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"wallet" text,
	"oidc_issuer" text,
	"oidc_subject" text,
	"display_name" text NOT NULL,
	"referral_code" text NOT NULL,
	"referred_by" bigint,
	"total_sp" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "week_user_sp" (
	"week" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"sp" bigint NOT NULL,
	CONSTRAINT "week_user_sp_week_user_id_pk" PRIMARY KEY("week","user_id")
);
--> statement-breakpoint
ALTER TABLE "competition_eligibility" ADD CONSTRAINT "competition_eligibility_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_leaderboard_snapshots" ADD CONSTRAINT "competition_leaderboard_snapshots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sp_ledger" ADD CONSTRAINT "sp_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sp_ledger" ADD CONSTRAINT "sp_ledger_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "week_user_sp" ADD CONSTRAINT "week_user_sp_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_user_key" ON "competition_leaderboard_snapshots" USING btree ("week","ladder","user_id");--> statement-breakpoint
CREATE INDEX "events_open_idx" ON "events" USING btree ("status","kickoff_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "protocol_fees_tx_log_key" ON "protocol_fees" USING btree ("tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "protocol_fees_occurred_idx" ON "protocol_fees" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sp_ledger_external_id_key" ON "sp_ledger" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "sp_ledger_user_idx" ON "sp_ledger" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "sp_ledger_event_idx" ON "sp_ledger" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_wallet_key" ON "users" USING btree ("wallet");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_key" ON "users" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
CREATE UNIQUE INDEX "users_referral_code_key" ON "users" USING btree ("referral_code");--> statement-breakpoint
CREATE INDEX "users_total_sp_idx" ON "users" USING btree ("total_sp" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "week_user_sp_rank_idx" ON "week_user_sp" USING btree ("week","sp" DESC NULLS LAST,"user_id");