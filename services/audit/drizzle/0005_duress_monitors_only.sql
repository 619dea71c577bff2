ALTER TABLE "audit"."entries" ADD COLUMN "monitors_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Entries of duress alarms written before the column existed: the emergency and the alarm's
-- opening named the duress PIN in their text. (Their steps, acknowledgements and resolutions are
-- system alerts and messages, which a worker's own log never shows.) The log stays append-only:
-- only this one backfill passes the trigger.
ALTER TABLE "audit"."entries" DISABLE TRIGGER "entries_append_only";--> statement-breakpoint
UPDATE "audit"."entries" SET "monitors_only" = true WHERE "details" LIKE 'DURESS%';--> statement-breakpoint
ALTER TABLE "audit"."entries" ENABLE TRIGGER "entries_append_only";
