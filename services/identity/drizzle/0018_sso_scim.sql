CREATE TABLE "identity"."external_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "external_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "identity"."scim_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "scim_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "identity"."sso_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"issuer" text DEFAULT '' NOT NULL,
	"client_id" text DEFAULT '' NOT NULL,
	"client_secret_enc" text,
	"subject_claim" text DEFAULT 'sub' NOT NULL,
	"email_domains" text[] DEFAULT '{}' NOT NULL,
	"password_login" text DEFAULT 'everyone' NOT NULL,
	"jit_enabled" boolean DEFAULT false NOT NULL,
	"groups_claim" text DEFAULT 'groups' NOT NULL,
	"group_teams" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"link_by_email" boolean DEFAULT false NOT NULL,
	"from_environment" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_settings_single_row" CHECK ("identity"."sso_settings"."id" = 1),
	CONSTRAINT "sso_settings_password_login" CHECK ("identity"."sso_settings"."password_login" in ('everyone', 'break_glass'))
);
--> statement-breakpoint
ALTER TABLE "identity"."teams" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "identity"."external_identities" ADD CONSTRAINT "external_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "external_identities_user_idx" ON "identity"."external_identities" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_external_id_key" ON "identity"."teams" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_external_id_key" ON "identity"."users" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "identity"."users" USING btree (lower("email"));