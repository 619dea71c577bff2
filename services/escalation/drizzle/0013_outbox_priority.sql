DROP INDEX "escalation"."outbox_unpublished_idx";--> statement-breakpoint
ALTER TABLE "escalation"."outbox" ADD COLUMN "priority" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "escalation"."outbox" USING btree ("priority","seq") WHERE published_at is null and parked_at is null;