CREATE TABLE "escalation"."teams" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"monitors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"escalation_policy" jsonb,
	"emergency_numbers" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "team_id" integer;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "team_id" integer;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "away_until" timestamp with time zone;