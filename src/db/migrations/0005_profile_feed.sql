ALTER TABLE "users" ADD COLUMN "profile_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "users_profile_xid_idx" ON "users" USING btree ("profile_xid");