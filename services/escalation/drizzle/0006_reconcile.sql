CREATE TABLE "escalation"."leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alarms_emergency_opened_idx" ON "escalation"."alarms" USING btree ("opened_at") WHERE "escalation"."alarms"."kind" = 'emergency';