-- The snapshot table becomes list-partitioned by week, one partition per week finalized from now on: finalize fills
-- the week's table without indexes, builds its two unique indexes in one sort each and attaches it
-- (competition/snapshot.repository.ts; docs/decisions.md "A partition per finalized week"). Unique indexes replace
-- the primary key: pg_restore --clean cannot drop a partition's inherited primary key (backup/restore, cli/backup.ts).
-- The weeks already stored stay where they are: the old table becomes the partition of all of them (its rows are
-- scanned once, not rewritten), with a unique index in place of its primary key for the same reason.
ALTER TABLE "competition_leaderboard_snapshots" RENAME TO "competition_leaderboard_snapshots_before_0019";--> statement-breakpoint
ALTER TABLE "competition_leaderboard_snapshots_before_0019" DROP CONSTRAINT "competition_leaderboard_snapshots_week_ladder_position_pk";--> statement-breakpoint
ALTER INDEX "competition_snapshots_user_key" RENAME TO "competition_snapshots_before_0019_user_key";--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_before_0019_position_key" ON "competition_leaderboard_snapshots_before_0019" USING btree ("week","ladder","position");--> statement-breakpoint
-- The same columns, NOT NULLs and ladder check as the old table, which it takes the name of.
CREATE TABLE "competition_leaderboard_snapshots" (
	LIKE "competition_leaderboard_snapshots_before_0019" INCLUDING DEFAULTS INCLUDING CONSTRAINTS
) PARTITION BY LIST ("week");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_position_key" ON "competition_leaderboard_snapshots" USING btree ("week","ladder","position");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_user_key" ON "competition_leaderboard_snapshots" USING btree ("week","ladder","user_id");--> statement-breakpoint
DO $$
DECLARE weeks text;
BEGIN
  SELECT string_agg(DISTINCT "week"::text, ', ') INTO weeks FROM "competition_leaderboard_snapshots_before_0019";
  IF weeks IS NULL THEN
    DROP TABLE "competition_leaderboard_snapshots_before_0019";
  ELSE
    EXECUTE format('ALTER TABLE "competition_leaderboard_snapshots" ATTACH PARTITION '
                   '"competition_leaderboard_snapshots_before_0019" FOR VALUES IN (%s)', weeks);
  END IF;
END
$$;
