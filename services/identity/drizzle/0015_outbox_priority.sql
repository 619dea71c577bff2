DROP INDEX "identity"."outbox_unpublished_idx";--> statement-breakpoint
ALTER TABLE "identity"."outbox" ADD COLUMN "priority" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "identity"."outbox" USING btree ("priority","seq") WHERE published_at is null and parked_at is null;