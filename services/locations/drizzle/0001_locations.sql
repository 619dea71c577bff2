CREATE TABLE "locations"."location_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "location_options_name_check" CHECK ("locations"."location_options"."name" = btrim("locations"."location_options"."name") and char_length("locations"."location_options"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "locations"."seed_steps" (
	"step" text PRIMARY KEY NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "location_options_name_lower_unique" ON "locations"."location_options" USING btree (lower("name"));