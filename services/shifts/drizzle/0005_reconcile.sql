ALTER TABLE "shifts"."worker_state" ADD COLUMN "changed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "emergencies_raised_idx" ON "shifts"."emergencies" USING btree ("raised_at");