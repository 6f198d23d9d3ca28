-- The snapshot table becomes list-partitioned by week, one partition per finalized week: finalize fills the week's
-- table without indexes, builds its two unique indexes in one sort each and attaches it
-- (competition/snapshot.repository.ts; docs/decisions.md "A partition per finalized week"). Unique indexes replace
-- the primary key: pg_restore --clean cannot drop a partition's inherited primary key (backup/restore, cli/backup.ts).
-- The weeks already stored move into partitions of their own.
ALTER TABLE "competition_leaderboard_snapshots" RENAME TO "competition_snapshots_before_0019";--> statement-breakpoint
ALTER TABLE "competition_snapshots_before_0019" RENAME CONSTRAINT "competition_snapshots_ladder_check" TO "competition_snapshots_before_0019_ladder_check";--> statement-breakpoint
ALTER INDEX "competition_snapshots_user_key" RENAME TO "competition_snapshots_before_0019_user_key";--> statement-breakpoint
CREATE TABLE "competition_leaderboard_snapshots" (
	"week" integer NOT NULL,
	"ladder" text NOT NULL,
	"position" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"competitive_sp" bigint NOT NULL,
	"rank" integer NOT NULL,
	"within_cutoff" boolean NOT NULL,
	"prize_micro" numeric(78, 0),
	CONSTRAINT "competition_snapshots_ladder_check" CHECK ("competition_leaderboard_snapshots"."ladder" in ('qualification','champions'))
) PARTITION BY LIST ("week");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_position_key" ON "competition_leaderboard_snapshots" USING btree ("week","ladder","position");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_user_key" ON "competition_leaderboard_snapshots" USING btree ("week","ladder","user_id");--> statement-breakpoint
DO $$
DECLARE w integer;
BEGIN
  FOR w IN SELECT DISTINCT "week" FROM "competition_snapshots_before_0019" ORDER BY 1 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "competition_leaderboard_snapshots" FOR VALUES IN (%s)',
                   'competition_leaderboard_snapshots_w' || w, w);
  END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "competition_leaderboard_snapshots" SELECT * FROM "competition_snapshots_before_0019";--> statement-breakpoint
DROP TABLE "competition_snapshots_before_0019";
