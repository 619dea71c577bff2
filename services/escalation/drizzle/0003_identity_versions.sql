ALTER TABLE "escalation"."worker_contacts" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "profile_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation"."workers" ADD COLUMN "settings_version" integer DEFAULT 0 NOT NULL;