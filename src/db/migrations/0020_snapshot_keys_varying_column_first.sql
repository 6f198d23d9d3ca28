-- The snapshot's two unique keys lead with the column that varies within a week (position, user) instead of
-- (week, ladder), which are the same on every row of a week's own table: finalize builds these indexes on a
-- million rows, and each comparison of their sorts compared all three columns (1,000,000 rows: 1.15–1.20 s for
-- both builds, 0.61–0.63 s with the new order; docs/performance.md, session 14). Every query names all three
-- columns or the week and ladder with a position range, which the new order serves as well. Dropping a
-- partitioned table's index drops its partitions'; creating one builds it on every partition.
DROP INDEX "competition_snapshots_position_key";--> statement-breakpoint
DROP INDEX "competition_snapshots_user_key";--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_position_key" ON "competition_leaderboard_snapshots" USING btree ("position","ladder","week");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_snapshots_user_key" ON "competition_leaderboard_snapshots" USING btree ("user_id","ladder","week");