CREATE TABLE "escalation"."alarm_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"alarm_id" uuid NOT NULL,
	"from_worker" boolean NOT NULL,
	"by_user_id" integer NOT NULL,
	"via" text,
	"text" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "alarm_messages_alarm_idx" ON "escalation"."alarm_messages" USING btree ("alarm_id","at");