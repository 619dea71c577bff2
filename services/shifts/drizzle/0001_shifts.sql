CREATE TABLE "shifts"."check_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shift_id" uuid NOT NULL,
	"location" text NOT NULL,
	"checked_in_at" timestamp with time zone NOT NULL,
	"next_check_in_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'safe' NOT NULL,
	"is_simulation" boolean DEFAULT false NOT NULL,
	"idempotency_key" text
);
--> statement-breakpoint
CREATE TABLE "shifts"."deleted_users" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shifts"."emergencies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shift_id" uuid,
	"location" text,
	"raised_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shifts"."locations" (
	"location_id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shifts"."shifts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"location" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" integer,
	"end_reason" text,
	CONSTRAINT "shifts_end_reason_check" CHECK ("shifts"."shifts"."end_reason" is null or "shifts"."shifts"."end_reason" in ('worker', 'forced', 'user_deleted'))
);
--> statement-breakpoint
CREATE TABLE "shifts"."worker_state" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"name" text,
	"username" text,
	"phone" text,
	"role" text,
	"check_in_interval" integer DEFAULT 60 NOT NULL,
	"on_shift" boolean DEFAULT false NOT NULL,
	"current_shift_id" uuid,
	"location" text,
	"shift_started_at" timestamp with time zone,
	"latest_check_in_id" uuid,
	"latest_check_in_at" timestamp with time zone,
	"latest_check_in_location" text,
	"next_check_in_at" timestamp with time zone,
	CONSTRAINT "worker_state_interval_check" CHECK ("shifts"."worker_state"."check_in_interval" in (30, 50, 60, 120, 240)),
	CONSTRAINT "worker_state_shift_fields_check" CHECK ("shifts"."worker_state"."on_shift" = ("shifts"."worker_state"."current_shift_id" is not null and "shifts"."worker_state"."shift_started_at" is not null and "shifts"."worker_state"."next_check_in_at" is not null and "shifts"."worker_state"."location" is not null))
);
--> statement-breakpoint
ALTER TABLE "shifts"."check_ins" ADD CONSTRAINT "check_ins_shift_id_shifts_id_fk" FOREIGN KEY ("shift_id") REFERENCES "shifts"."shifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_ins_user_time_idx" ON "shifts"."check_ins" USING btree ("user_id","checked_in_at");--> statement-breakpoint
CREATE INDEX "check_ins_shift_idx" ON "shifts"."check_ins" USING btree ("shift_id");--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_user_idempotency_key" ON "shifts"."check_ins" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "emergencies_user_idx" ON "shifts"."emergencies" USING btree ("user_id","raised_at");--> statement-breakpoint
CREATE INDEX "locations_name_lower_idx" ON "shifts"."locations" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "shifts_user_started_idx" ON "shifts"."shifts" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shifts_one_open_per_user" ON "shifts"."shifts" USING btree ("user_id") WHERE "shifts"."shifts"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "worker_state_next_check_in_idx" ON "shifts"."worker_state" USING btree ("next_check_in_at","user_id") WHERE "shifts"."worker_state"."on_shift";--> statement-breakpoint
CREATE INDEX "worker_state_on_shift_idx" ON "shifts"."worker_state" USING btree ("on_shift","user_id");