-- Kiosks enrolled before keep location_id null until identity binds them by their location's name at
-- start-up (src/kiosks/kiosk-location-binding.ts): the names live in the locations service's tables.
ALTER TABLE "identity"."kiosks" ADD COLUMN "location_id" integer;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "created_by" integer;