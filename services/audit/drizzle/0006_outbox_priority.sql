DROP INDEX "audit"."outbox_unpublished_idx";--> statement-breakpoint
ALTER TABLE "audit"."outbox" ADD COLUMN "priority" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "audit"."outbox" USING btree ("priority","seq") WHERE published_at is null and parked_at is null;