CREATE TABLE "escalation"."dead_letters" (
	"id" uuid PRIMARY KEY NOT NULL,
	"consumer" text NOT NULL,
	"subject" text NOT NULL,
	"event_id" uuid,
	"envelope" jsonb NOT NULL,
	"error" text NOT NULL,
	"attempts" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"resolved_by" integer
);
--> statement-breakpoint
DROP INDEX "escalation"."outbox_unpublished_idx";--> statement-breakpoint
ALTER TABLE "escalation"."outbox" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "escalation"."outbox" ADD COLUMN "parked_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "dead_letters_open_event_idx" ON "escalation"."dead_letters" USING btree ("consumer","event_id") WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "dead_letters_open_idx" ON "escalation"."dead_letters" USING btree ("first_seen_at") WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "alarms_unresolved_idx" ON "escalation"."alarms" USING btree ("kind","opened_at") WHERE "escalation"."alarms"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "outbox_parked_idx" ON "escalation"."outbox" USING btree ("parked_at") WHERE parked_at is not null;--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "escalation"."outbox" USING btree ("seq") WHERE published_at is null and parked_at is null;