CREATE TABLE "notifications"."deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid,
	"fanout_key" text DEFAULT '' NOT NULL,
	"channel" text NOT NULL,
	"to_address" text NOT NULL,
	"purpose" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"provider_sid" text,
	"error_code" integer,
	"error_message" text,
	"user_id" integer,
	"alarm_id" uuid,
	"call_timeout_seconds" integer,
	"accepted" boolean DEFAULT false NOT NULL,
	"outcome" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications"."local_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications"."push_subscriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications"."users" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"role" text,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_request_fanout_key" ON "notifications"."deliveries" USING btree ("request_id","fanout_key") WHERE "notifications"."deliveries"."request_id" is not null;--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "notifications"."deliveries" USING btree ("next_attempt_at") WHERE "notifications"."deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_sending_idx" ON "notifications"."deliveries" USING btree ("claimed_until") WHERE "notifications"."deliveries"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "deliveries_open_calls_idx" ON "notifications"."deliveries" USING btree ("updated_at") WHERE "notifications"."deliveries"."channel" = 'voice' and "notifications"."deliveries"."outcome" is null and "notifications"."deliveries"."provider_sid" is not null;--> statement-breakpoint
CREATE INDEX "deliveries_provider_sid_idx" ON "notifications"."deliveries" USING btree ("provider_sid");--> statement-breakpoint
CREATE INDEX "deliveries_created_idx" ON "notifications"."deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "deliveries_user_created_idx" ON "notifications"."deliveries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "notifications"."push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "notifications"."push_subscriptions" USING btree ("user_id");