-- A week's pool is a sum of accepted fees (each at most 10^18 − 1 micro-USDC) plus the protocol incentive, and a
-- prize is a share of it: neither is bounded by 64 bits, so both columns widen to numeric (integer micro-USDC).
ALTER TABLE "competition_weeks" ALTER COLUMN "pool_micro" SET DATA TYPE numeric(78, 0);
--> statement-breakpoint
ALTER TABLE "competition_leaderboard_snapshots" ALTER COLUMN "prize_micro" SET DATA TYPE numeric(78, 0);
