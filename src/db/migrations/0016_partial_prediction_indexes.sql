DROP INDEX "predictions_event_idx";--> statement-breakpoint
DROP INDEX "predictions_idempotency_key";--> statement-breakpoint
CREATE INDEX "predictions_open_event_idx" ON "predictions" USING btree ("event_id") WHERE "predictions"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "predictions_idempotency_key" ON "predictions" USING btree ("user_id","version","idempotency_key") WHERE "predictions"."idempotency_key" is not null;