CREATE TABLE "identity"."emergency_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"relation" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."kiosks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"location" text NOT NULL,
	"token_hash" text NOT NULL,
	"enrolled_by" integer NOT NULL,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "kiosks_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "identity"."local_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."pin_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."user_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"primary_contact" text NOT NULL,
	"secondary_contact" text,
	"check_in_interval" integer DEFAULT 60 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_settings_interval_check" CHECK ("identity"."user_settings"."check_in_interval" in (30, 50, 60, 120, 240))
);
--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "pin_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "password_is_temporary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."emergency_contacts" ADD CONSTRAINT "emergency_contacts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."pin_failures" ADD CONSTRAINT "pin_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emergency_contacts_user_idx" ON "identity"."emergency_contacts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "pin_failures_user_time_idx" ON "identity"."pin_failures" USING btree ("user_id","failed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_pin_hash_unique" ON "identity"."users" USING btree ("pin_hash");