ALTER TABLE "escalation"."alarm_events" ADD COLUMN "worker_text" text;--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "duress" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "worker_safe_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "safe_under_duress" boolean DEFAULT false NOT NULL;