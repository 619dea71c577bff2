ALTER TABLE "identity"."teams" ADD COLUMN "on_call_schedule" jsonb;--> statement-breakpoint
ALTER TABLE "identity"."teams" ADD COLUMN "cover_required" text DEFAULT 'off' NOT NULL;