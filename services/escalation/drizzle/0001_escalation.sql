CREATE TABLE "escalation"."alarm_events" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "escalation"."alarm_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"alarm_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation"."alarms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"policy" jsonb NOT NULL,
	"step_index" integer DEFAULT 0 NOT NULL,
	"call_round" integer DEFAULT 0 NOT NULL,
	"call_accepted_at" timestamp with time zone,
	"opened_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone,
	"worker_name" text,
	"location" text,
	"shift_id" uuid,
	"emergency_id" uuid,
	"acknowledged_by" integer,
	"acknowledged_at" timestamp with time zone,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"verdict" text,
	"note" text,
	"late_check_in_at" timestamp with time zone,
	"steps_stopped_reason" text
);
--> statement-breakpoint
CREATE TABLE "escalation"."calls" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"alarm_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"round" integer NOT NULL,
	"number_index" integer NOT NULL,
	"phone" text NOT NULL,
	"repeat" boolean DEFAULT false NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "escalation"."deadlines" (
	"job_key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer NOT NULL,
	"step" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation"."ended_shifts" (
	"shift_id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"ended_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation"."worker_contacts" (
	"contact_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text,
	"phone" text,
	"relation" text,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation"."workers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"name" text,
	"phone" text,
	"role" text,
	"check_in_interval" integer DEFAULT 60 NOT NULL,
	"primary_contact" text,
	"secondary_contact" text,
	"on_shift" boolean DEFAULT false NOT NULL,
	"shift_id" uuid,
	"location" text,
	"next_check_in_at" timestamp with time zone,
	"deadline_as_of" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "alarm_events_alarm_idx" ON "escalation"."alarm_events" USING btree ("alarm_id","seq");--> statement-breakpoint
CREATE INDEX "alarms_opened_idx" ON "escalation"."alarms" USING btree ("opened_at","id");--> statement-breakpoint
CREATE INDEX "alarms_user_idx" ON "escalation"."alarms" USING btree ("user_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_emergency_idx" ON "escalation"."alarms" USING btree ("emergency_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_missed_deadline_idx" ON "escalation"."alarms" USING btree ("user_id","due_at") WHERE "escalation"."alarms"."kind" = 'missed_check_in';--> statement-breakpoint
CREATE INDEX "calls_alarm_idx" ON "escalation"."calls" USING btree ("alarm_id","round","number_index");--> statement-breakpoint
CREATE INDEX "deadlines_due_at_idx" ON "escalation"."deadlines" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "deadlines_user_idx" ON "escalation"."deadlines" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "worker_contacts_user_idx" ON "escalation"."worker_contacts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workers_on_shift_next_idx" ON "escalation"."workers" USING btree ("next_check_in_at","user_id") WHERE "escalation"."workers"."on_shift";