CREATE TABLE "escalation"."checkin_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL,
	"user_id" integer NOT NULL,
	"team_id" integer,
	"asked_team_id" integer,
	"requested_by" integer NOT NULL,
	"requested_via" text,
	"requested_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"alarm_id" uuid,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "checkin_requests_batch_idx" ON "escalation"."checkin_requests" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "checkin_requests_requested_idx" ON "escalation"."checkin_requests" USING btree ("requested_at");--> statement-breakpoint
CREATE INDEX "checkin_requests_open_idx" ON "escalation"."checkin_requests" USING btree ("user_id") WHERE answered_at is null and alarm_id is null and closed_at is null;