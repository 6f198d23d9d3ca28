CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "log_index" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "predictions_chain_tx_log_key" ON "predictions" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "predictions_pending_idx" ON "predictions" USING btree ("id") WHERE "predictions"."status" = 'pending';