CREATE TABLE "identity"."teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"location_ids" integer[] DEFAULT '{}' NOT NULL,
	"monitors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"default_interval" integer DEFAULT 60 NOT NULL,
	"allowed_intervals" integer[] DEFAULT '{30,50,60,120,240}' NOT NULL,
	"escalation_policy" jsonb,
	"emergency_numbers" text[] DEFAULT '{}' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "team_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "teams_name_lower_key" ON "identity"."teams" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "identity"."users" ADD CONSTRAINT "users_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "identity"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_team_idx" ON "identity"."users" USING btree ("team_id");--> statement-breakpoint
-- An upgraded deployment keeps working as one team: "Default" holds every worker and is monitored by every admin, in id order.
INSERT INTO "identity"."teams" ("name", "monitors") SELECT 'Default', coalesce((SELECT jsonb_agg(jsonb_build_object('userId', "id") ORDER BY "id") FROM "identity"."users" WHERE "role" = 'admin'), '[]'::jsonb);--> statement-breakpoint
UPDATE "identity"."users" SET "team_id" = (SELECT "id" FROM "identity"."teams" WHERE "name" = 'Default') WHERE "role" = 'worker';--> statement-breakpoint
ALTER TABLE "identity"."users" ADD CONSTRAINT "users_worker_team" CHECK ("identity"."users"."role" <> 'worker' or "identity"."users"."team_id" is not null);