CREATE TABLE "escalation"."on_call_notices" (
	"day" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"teams" integer NOT NULL
);
