ALTER TABLE "notifications"."deliveries" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "notifications"."users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "notifications"."users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "notifications"."users" ADD COLUMN "version" integer;--> statement-breakpoint
CREATE INDEX "users_phone_idx" ON "notifications"."users" USING btree ("phone") WHERE "notifications"."users"."phone" is not null;