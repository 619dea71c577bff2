CREATE TABLE "audit"."entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"username" text,
	"type" text NOT NULL,
	"details" text NOT NULL,
	"location" text,
	"at" timestamp (3) with time zone NOT NULL,
	"source_event_id" uuid,
	CONSTRAINT "entries_source_event_id_key" UNIQUE("source_event_id")
);
--> statement-breakpoint
CREATE TABLE "audit"."logged_messages" (
	"message_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"logged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "logged_messages_message_id_stage_pk" PRIMARY KEY("message_id","stage")
);
--> statement-breakpoint
CREATE TABLE "audit"."users" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"username" text,
	"name" text,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "entries_at_idx" ON "audit"."entries" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "entries_user_at_idx" ON "audit"."entries" USING btree ("user_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);