DROP INDEX "escalation"."deadlines_due_at_idx";--> statement-breakpoint
ALTER TABLE "escalation"."deadlines" ADD COLUMN "priority" smallint GENERATED ALWAYS AS (case when kind = 'alarm' and payload ? 'urgent' then 0 when kind = 'alarm' or step = 'missed' then 1 else 2 end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation"."deadlines" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation"."deadlines" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE INDEX "deadlines_claim_idx" ON "escalation"."deadlines" USING btree ("priority","due_at");--> statement-breakpoint
-- Emergencies already escalating when this runs are claimed first too.
UPDATE "escalation"."deadlines" AS d SET "payload" = d."payload" || '{"urgent": true}'::jsonb
FROM "escalation"."alarms" AS a
WHERE d."kind" = 'alarm' AND a."id" = (d."payload" ->> 'alarmId')::uuid AND a."kind" = 'emergency';
