CREATE TABLE "daily_raffles" (
	"day" text PRIMARY KEY NOT NULL,
	"seed" text NOT NULL,
	"eligible_count" integer NOT NULL,
	"winner_user_id" bigint,
	"prize_sp" integer NOT NULL,
	"drawn_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "daily_raffles" ADD CONSTRAINT "daily_raffles_winner_user_id_users_id_fk" FOREIGN KEY ("winner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;