DROP INDEX "sp_ledger_reverses_key";--> statement-breakpoint
CREATE UNIQUE INDEX "sp_ledger_reverses_key" ON "sp_ledger" USING btree ("reverses_id") WHERE "sp_ledger"."reverses_id" is not null;