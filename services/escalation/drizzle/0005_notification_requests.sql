CREATE TABLE "escalation"."notification_requests" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"alarm_id" uuid NOT NULL,
	"request" jsonb NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"asks" integer DEFAULT 1 NOT NULL,
	"next_ask_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"last_status" text,
	"alerted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "notification_requests_unconfirmed_idx" ON "escalation"."notification_requests" USING btree ("next_ask_at") WHERE "escalation"."notification_requests"."confirmed_at" is null and "escalation"."notification_requests"."next_ask_at" is not null;