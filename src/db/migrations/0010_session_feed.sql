ALTER TABLE "sessions" ADD COLUMN "changed_xid" "xid8";--> statement-breakpoint
CREATE INDEX "sessions_changed_xid_idx" ON "sessions" USING btree ("changed_xid") WHERE "changed_xid" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION "sessions_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_changed" BEFORE UPDATE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "sessions_mark_changed"();--> statement-breakpoint
CREATE FUNCTION "sessions_refuse_unexpired_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.expires_at > now() THEN
    RAISE EXCEPTION 'session % has not expired: revoke it (UPDATE revoked_at) and delete it once expired', OLD.id;
  END IF;
  RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_no_unexpired_delete" BEFORE DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "sessions_refuse_unexpired_delete"();
