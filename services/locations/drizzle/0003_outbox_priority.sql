DROP INDEX "locations"."outbox_unpublished_idx";--> statement-breakpoint
ALTER TABLE "locations"."outbox" ADD COLUMN "priority" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "locations"."outbox" USING btree ("priority","seq") WHERE published_at is null and parked_at is null;