ALTER TABLE "escalation"."alarms" ADD COLUMN "severity" text;--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "reason" text;