ALTER TABLE "shifts"."check_ins" ADD COLUMN "lat" double precision;--> statement-breakpoint
ALTER TABLE "shifts"."check_ins" ADD COLUMN "lng" double precision;--> statement-breakpoint
ALTER TABLE "shifts"."check_ins" ADD COLUMN "accuracy_m" double precision;--> statement-breakpoint
ALTER TABLE "shifts"."shifts" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "shifts"."worker_state" ADD COLUMN "shift_note" text;