ALTER TABLE "escalation"."alarms" ADD COLUMN "shift_note" text;--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "last_position" jsonb;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "shift_note" text;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "last_position" jsonb;