DROP INDEX "escalation"."notification_requests_unconfirmed_idx";--> statement-breakpoint
ALTER TABLE "escalation"."alarms" ADD COLUMN "nobody_reached_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "notification_requests_next_ask_idx" ON "escalation"."notification_requests" USING btree ("next_ask_at") WHERE "escalation"."notification_requests"."next_ask_at" is not null;