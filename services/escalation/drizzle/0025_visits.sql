ALTER TABLE "escalation"."alarms" ADD COLUMN "visit" jsonb;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "visit" jsonb;