DROP INDEX "notifications"."deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "notifications"."deliveries" ADD COLUMN "priority" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "notifications"."deliveries" USING btree ("priority","next_attempt_at") WHERE "notifications"."deliveries"."status" = 'pending';--> statement-breakpoint
-- Messages still waiting when this runs take their place in the order too (an emergency's call or
-- contact message cannot be told from its row: those wait as alarm messages, as before).
UPDATE "notifications"."deliveries" SET "priority" = CASE WHEN "purpose" = 'emergency' THEN 0 ELSE 2 END
WHERE "status" = 'pending' AND ("purpose" = 'emergency' OR "purpose" LIKE 'reminder\_%');
