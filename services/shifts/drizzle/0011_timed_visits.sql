CREATE TABLE "shifts"."local_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shifts"."visits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shift_id" uuid NOT NULL,
	"where" text,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"sealed_note" text,
	"purged_at" timestamp with time zone,
	CONSTRAINT "visits_end_reason_check" CHECK ("shifts"."visits"."end_reason" is null or "shifts"."visits"."end_reason" in ('worker', 'check_in', 'shift_ended'))
);
--> statement-breakpoint
ALTER TABLE "shifts"."emergencies" ADD COLUMN "visit_id" uuid;--> statement-breakpoint
ALTER TABLE "shifts"."worker_state" ADD COLUMN "visit" jsonb;--> statement-breakpoint
ALTER TABLE "shifts"."visits" ADD CONSTRAINT "visits_shift_id_shifts_id_fk" FOREIGN KEY ("shift_id") REFERENCES "shifts"."shifts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_user_started_idx" ON "shifts"."visits" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "visits_shift_idx" ON "shifts"."visits" USING btree ("shift_id");