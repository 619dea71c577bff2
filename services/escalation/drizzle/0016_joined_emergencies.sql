CREATE TABLE "escalation"."joined_emergencies" (
	"emergency_id" uuid PRIMARY KEY NOT NULL,
	"alarm_id" uuid NOT NULL,
	"user_id" integer NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"joined_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "joined_emergencies_joined_idx" ON "escalation"."joined_emergencies" USING btree ("joined_at");