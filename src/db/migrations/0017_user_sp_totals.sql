-- All-time SP moves out of users into a narrow table of its own (src/db/schema.ts, userSpTotals): an update of a
-- users row rewrote all seven of its indexes, so a settle's totals cost 2.4 s at 1M players.
CREATE TABLE "user_sp_totals" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"total_sp" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "user_sp_totals" ("user_id", "total_sp") SELECT "id", "total_sp" FROM "users" WHERE "total_sp" <> 0 ORDER BY "id";--> statement-breakpoint
DROP INDEX "users_total_sp_idx";--> statement-breakpoint
ALTER TABLE "user_sp_totals" ADD CONSTRAINT "user_sp_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_sp_totals_rank_idx" ON "user_sp_totals" USING btree ("total_sp" DESC NULLS LAST,"user_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "total_sp";
