ALTER TABLE "escalation"."alarms" ADD COLUMN "acknowledged_via" text;--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "resolved_via" text;